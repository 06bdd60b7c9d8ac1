// The README's picture (TestStudioScreenshot): a path across the dungeon
// and a few agents walking, seen from the side.
const studio = window.studio;
studio.frameView(false, 0.75);
studio.setTool('path');
await studio.clickWorld(-9.17, 10.2, -20.34);
await studio.clickWorld(36.5, 10.2, -6.5);
await studio.crowd('scatter', { count: 20 });
for (let i = 0; i < 45; i++) await studio.crowd('step');
studio.render();
