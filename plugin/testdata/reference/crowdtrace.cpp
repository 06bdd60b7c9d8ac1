// crowdtrace: runs dtCrowd (recastnavigation 1.6.0) on a DNAV tile with the agents of a
// scenario CSV (header naming sx,sy,sz,tx,ty,tz; one agent per row) and writes the trace
// of tick 0 and of every tick t with (t+1) % 30 == 0:
//     tick agent x y z targetState
// positions as C hexadecimal floats (%a). It prints how many searches went through the
// path queue (targetState WAITING_FOR_QUEUE -> WAITING_FOR_PATH) and the agents reached.
// The crowd is set up as in plugin/testdata/reference/crowdbench.cpp.
#include <cstdio>
#include <cstring>
#include <cstdlib>
#include <vector>
#include <string>
#include <cmath>
#include "DetourNavMesh.h"
#include "DetourNavMeshQuery.h"
#include "DetourCrowd.h"
#include "DetourCommon.h"

static bool readScenario(const char* path, std::vector<float>& pts) {
	FILE* c = fopen(path, "r");
	if (!c) return false;
	char line[4096];
	if (!fgets(line, sizeof(line), c)) { fclose(c); return false; }
	// find the columns by header name
	const char* names[6] = {"sx", "sy", "sz", "tx", "ty", "tz"};
	int cols[6] = {-1, -1, -1, -1, -1, -1};
	{
		int col = 0; char* save = 0;
		for (char* tok = strtok_r(line, ",\r\n", &save); tok; tok = strtok_r(0, ",\r\n", &save), col++) {
			while (*tok == ' ') tok++;
			for (int k = 0; k < 6; k++) if (strcmp(tok, names[k]) == 0) cols[k] = col;
		}
	}
	for (int k = 0; k < 6; k++) if (cols[k] < 0) { fprintf(stderr, "no %s column\n", names[k]); fclose(c); return false; }
	while (fgets(line, sizeof(line), c)) {
		std::vector<std::string> fields; char* save = 0;
		for (char* tok = strtok_r(line, ",\r\n", &save); tok; tok = strtok_r(0, ",\r\n", &save)) fields.push_back(tok);
		if (fields.empty()) continue;
		for (int k = 0; k < 6; k++) pts.push_back(strtof(fields[cols[k]].c_str(), 0));
	}
	fclose(c);
	return true;
}

int main(int argc, char** argv) {
	if (argc < 5) { fprintf(stderr, "usage: crowdtrace tile.bin scenario.csv ticks trace.txt\n"); return 1; }
	FILE* f = fopen(argv[1], "rb");
	if (!f) { perror(argv[1]); return 1; }
	fseek(f, 0, SEEK_END); long sz = ftell(f); fseek(f, 0, SEEK_SET);
	unsigned char* data = (unsigned char*)dtAlloc(sz, DT_ALLOC_PERM);
	if (fread(data, 1, sz, f) != (size_t)sz) { fprintf(stderr, "short read\n"); return 1; }
	fclose(f);
	dtNavMesh* nav = dtAllocNavMesh();
	if (dtStatusFailed(nav->init(data, (int)sz, DT_TILE_FREE_DATA))) { fprintf(stderr, "init failed\n"); return 1; }
	std::vector<float> pts;
	if (!readScenario(argv[2], pts)) { fprintf(stderr, "cannot read %s\n", argv[2]); return 1; }
	int n = (int)pts.size() / 6, ticks = atoi(argv[3]);
	dtCrowd* crowd = dtAllocCrowd();
	crowd->init(n, 0.6f, nav);
	crowd->getEditableFilter(0)->setExcludeFlags(0x10);
	dtObstacleAvoidanceParams params;
	memcpy(&params, crowd->getObstacleAvoidanceParams(0), sizeof(params));
	params.velBias = 0.5f; params.adaptiveDivs = 5; params.adaptiveRings = 2; params.adaptiveDepth = 1; crowd->setObstacleAvoidanceParams(0, &params);
	params.velBias = 0.5f; params.adaptiveDivs = 5; params.adaptiveRings = 2; params.adaptiveDepth = 2; crowd->setObstacleAvoidanceParams(1, &params);
	params.velBias = 0.5f; params.adaptiveDivs = 7; params.adaptiveRings = 2; params.adaptiveDepth = 3; crowd->setObstacleAvoidanceParams(2, &params);
	params.velBias = 0.5f; params.adaptiveDivs = 7; params.adaptiveRings = 3; params.adaptiveDepth = 3; crowd->setObstacleAvoidanceParams(3, &params);
	dtCrowdAgentParams ap; memset(&ap, 0, sizeof(ap));
	ap.radius = 0.6f; ap.height = 2.0f; ap.maxAcceleration = 8.0f; ap.maxSpeed = 3.5f;
	ap.collisionQueryRange = ap.radius * 12.0f; ap.pathOptimizationRange = ap.radius * 30.0f;
	ap.updateFlags = DT_CROWD_ANTICIPATE_TURNS | DT_CROWD_OPTIMIZE_VIS | DT_CROWD_OPTIMIZE_TOPO | DT_CROWD_OBSTACLE_AVOIDANCE | DT_CROWD_SEPARATION;
	ap.obstacleAvoidanceType = 3; ap.separationWeight = 2.0f;
	const dtQueryFilter* filter = crowd->getFilter(0);
	const float* ext = crowd->getQueryExtents();
	const dtNavMeshQuery* q = crowd->getNavMeshQuery();
	for (int i = 0; i < n; i++) {
		int idx = crowd->addAgent(&pts[i*6], &ap);
		if (idx != i) { fprintf(stderr, "agent %d got index %d\n", i, idx); return 1; }
		dtPolyRef ref; float nearest[3];
		q->findNearestPoly(&pts[i*6+3], ext, filter, &ref, nearest);
		if (ref) crowd->requestMoveTarget(idx, ref, nearest);
	}
	FILE* trace = fopen(argv[4], "w");
	std::vector<dtPathQueueRef> lastRef(n, DT_PATHQ_INVALID);
	long queued = 0, queuedInFirst = 0;
	for (int t = 0; t < ticks; t++) {
		crowd->update(1.0f/60.0f, 0);
		for (int i = 0; i < n; i++) {
			const dtCrowdAgent* ag = crowd->getAgent(i);
			// a request handed to the queue: a new handle (it may finish in the same tick)
			if (ag->targetPathqRef != DT_PATHQ_INVALID && ag->targetPathqRef != lastRef[i]) queued++;
			lastRef[i] = ag->targetPathqRef;
		}
		if (t == 0 || (t+1) % 30 == 0)
			for (int i = 0; i < n; i++) {
				const dtCrowdAgent* ag = crowd->getAgent(i);
				fprintf(trace, "%d %d %a %a %a %d\n", t, i, ag->npos[0], ag->npos[1], ag->npos[2], ag->targetState);
			}
		if (t == 59) queuedInFirst = queued;
	}
	fclose(trace);
	int reached = 0, waiting = 0;
	for (int i = 0; i < n; i++) {
		const dtCrowdAgent* ag = crowd->getAgent(i);
		float dx = ag->npos[0] - pts[i*6+3], dz = ag->npos[2] - pts[i*6+5];
		if (sqrtf(dx*dx + dz*dz) <= 1.0f) reached++;
		if (ag->targetState == DT_CROWDAGENT_TARGET_WAITING_FOR_QUEUE || ag->targetState == DT_CROWDAGENT_TARGET_WAITING_FOR_PATH) waiting++;
	}
	printf("agents %d ticks %d reached %d waiting %d queue-requests-seen %ld (first second %ld)\n", n, ticks, reached, waiting, queued, queuedInFirst);
	return 0;
}
