// The browser test's script: run in the studio page (?selftest=check), it
// drives the page as a user would and posts what it saw to
// /selftest/result. studio_browser_test.go checks the answers against
// navtool bake and navtool query.
const studio = window.studio;
const result = { steps: [] };
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const info = () => document.getElementById('meshinfo').dataset;

async function until(what, test, ms = 60000) {
  const end = performance.now() + ms;
  while (!test()) {
    if (performance.now() > end) throw new Error('timed out waiting for ' + what);
    await sleep(50);
  }
}

function capture() {
  studio.render();
  return document.getElementById('canvas').toDataURL('image/png');
}

async function post(path, body) {
  await fetch(path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
}

try {
  // The page as it loads: the first bake's navmesh, seen from above.
  studio.frameView(true);
  result.firstPolys = Number(info().polys);
  result.firstVersion = Number(info().version);
  result.layerCounts = studio.layerCounts;
  result.screenshot = capture();
  result.steps.push('loaded');

  // Rebake with another agent radius through the form.
  const radius = document.getElementById('set-agentRadius');
  radius.value = '1.2';
  radius.dispatchEvent(new Event('input'));
  document.getElementById('rebake').click();
  await until('the rebake', () => Number(info().version) > result.firstVersion && studio.state.bake && studio.state.bake.state === 'done' &&
    studio.drawnVersion === Number(info().version));
  result.rebakePolys = Number(info().polys);
  result.rebakeState = studio.state.bake.state;
  result.rebakeSettings = studio.state.settings;
  result.steps.push('rebaked');

  // A path: two clicks on the navmesh in the path tool.
  studio.setTool('path');
  const [a, b] = await (await fetch('/selftest/points.json')).json();
  await studio.clickWorld(...a);
  if (!studio.start) throw new Error('the first click found nothing: ' + document.getElementById('status').textContent);
  await studio.clickWorld(...b);
  await until('the path', () => studio.lastQuery && studio.lastQuery.kind === 'path');
  result.path = studio.lastQuery;
  result.pathText = document.getElementById('result').textContent;
  result.steps.push('path');

  // The crowd: 20 agents, play for a second of simulated time.
  await studio.crowd('scatter', { count: 20 });
  const before = studio.lastFrame.agents.map((x) => x.slice(0, 3));
  await studio.crowd('play');
  await until('30 ticks', () => studio.lastFrame && studio.lastFrame.tick >= 30, 90000);
  await studio.crowd('pause');
  const after = studio.lastFrame.agents.map((x) => x.slice(0, 3));
  result.crowd = { tick: studio.lastFrame.tick, agents: after.length, before, after };
  result.crowdText = document.getElementById('crowdinfo').textContent;
  result.steps.push('crowd');
  result.screenshotAfter = capture();
} catch (e) {
  result.failure = String(e && e.stack || e);
}
result.errors = window.studioErrors;
await post('/selftest/result', result);
