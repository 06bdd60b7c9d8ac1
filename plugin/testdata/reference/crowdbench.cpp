// Harness that recorded the traces and the C++ figures: runs dtCrowd on a DNAV tile with
// agents from a CSV (sx sy sz tx ty tz), prints timing and reached count.
#include <cstdio>
#include <cstring>
#include <ctime>
#include <cstdlib>
#include <vector>
#include <chrono>
#include <algorithm>
#include <cmath>
#include "DetourNavMesh.h"
#include "DetourNavMeshQuery.h"
#include "DetourCrowd.h"
#include "DetourCommon.h"

int main(int argc, char** argv) {
	if (argc < 4) { fprintf(stderr, "usage: crowdbench tile.bin agents.csv ticks [dumpfile]\n"); return 1; }
	FILE* f = fopen(argv[1], "rb"); fseek(f, 0, SEEK_END); long sz = ftell(f); fseek(f, 0, SEEK_SET);
	unsigned char* data = (unsigned char*)dtAlloc(sz, DT_ALLOC_PERM); fread(data, 1, sz, f); fclose(f);
	dtNavMesh* nav = dtAllocNavMesh();
	if (dtStatusFailed(nav->init(data, (int)sz, DT_TILE_FREE_DATA))) { fprintf(stderr, "init failed\n"); return 1; }
	std::vector<float> pts;
	FILE* c = fopen(argv[2], "r"); float v[6];
	while (fscanf(c, "%f %f %f %f %f %f", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5]) == 6) pts.insert(pts.end(), v, v + 6);
	fclose(c);
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
		dtPolyRef ref; float nearest[3];
		q->findNearestPoly(&pts[i*6+3], ext, filter, &ref, nearest);
		if (ref) crowd->requestMoveTarget(idx, ref, nearest);
	}
	FILE* trace = argc > 5 ? fopen(argv[5], "w") : 0;
	std::vector<double> ms;
	clock_t c0 = clock();
	for (int t = 0; t < ticks; t++) {
		auto a = std::chrono::steady_clock::now();
		crowd->update(1.0f/60.0f, 0);
		auto b = std::chrono::steady_clock::now();
		ms.push_back(std::chrono::duration<double, std::milli>(b - a).count());
		if (trace) for (int i = 0; i < n; i++) { const dtCrowdAgent* ag = crowd->getAgent(i); fprintf(trace, "%d %d %a %a %a %d dvel %a %a nvel %a %a vel %a %a nc %d c0 %a %a np %d ds %a\n", t, i, ag->npos[0], ag->npos[1], ag->npos[2], ag->targetState, ag->dvel[0], ag->dvel[2], ag->nvel[0], ag->nvel[2], ag->vel[0], ag->vel[2], ag->ncorners, ag->cornerVerts[0], ag->cornerVerts[2], ag->corridor.getPathCount(), ag->desiredSpeed); }
	}
	double cpu = double(clock() - c0) / CLOCKS_PER_SEC * 1000.0 / ticks;
	double sum = 0; for (double m : ms) sum += m;
	std::vector<double> s = ms; std::sort(s.begin(), s.end());
	int reached = 0;
	for (int i = 0; i < n; i++) {
		const dtCrowdAgent* ag = crowd->getAgent(i);
		float dx = ag->npos[0] - pts[i*6+3], dz = ag->npos[2] - pts[i*6+5];
		if (sqrtf(dx*dx + dz*dz) <= 1.0f) reached++;
	}
	printf("agents %d ticks %d cpu %.3f mean %.3f p50 %.3f p99 %.3f max %.3f reached %d\n", n, ticks, cpu, sum/ticks, s[ticks/2], s[(int)(ticks*0.99)], s[ticks-1], reached);
	if (argc > 4) {
		FILE* d = fopen(argv[4], "w");
		for (int i = 0; i < n; i++) { const dtCrowdAgent* ag = crowd->getAgent(i); fprintf(d, "%.9g %.9g %.9g\n", ag->npos[0], ag->npos[1], ag->npos[2]); }
		fclose(d);
	}
	return 0;
}
