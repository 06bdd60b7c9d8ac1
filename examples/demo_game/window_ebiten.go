//go:build ebiten

package main

import (
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"strings"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"

	"github.com/archenav/archenav/examples/demo_game/render"
	"github.com/archenav/archenav/examples/demo_game/scene"
	"github.com/archenav/archenav/examples/demo_game/sim"
	"github.com/archenav/archenav/navcore/crowd"
)

// haveWindow reports whether this build has the interactive window (build
// tag ebiten).
const haveWindow = true

// messageTime is how long a message replaces the help line.
const messageTime = 3 * time.Second

// Default window size when -size is auto [Units: pixels].
const windowWidth, windowHeight = 1024, 768

func runWindow(o *options, stdout io.Writer) error {
	d, err := setup(o)
	if err != nil {
		return err
	}
	fmt.Fprintln(stdout, d.bakeSummary())
	width, height := o.width, o.height
	if width == 0 {
		width, height = windowWidth, windowHeight
	}
	g := newGame(d, o, width, height)
	ebiten.SetWindowTitle("archenav demo - " + d.level.Name)
	ebiten.SetWindowSize(width, height)
	ebiten.SetTPS(tickRate * 2) // the crowd steps once per update: 60 ticks a second
	if err := ebiten.RunGame(g); err != nil && !errors.Is(err, ebiten.Termination) {
		return err
	}
	if g.err != nil {
		return g.err
	}
	if g.screenshotSaved {
		fmt.Fprintf(stdout, "wrote %s\n", o.screenshot)
	}
	stats := d.crowd.Stats()
	fmt.Fprintf(stdout, "crowd: %d agents, %d ticks, %.3f ms per tick, %d arrivals\n",
		stats.Agents, stats.Ticks, stats.MillisecondsPerTick(), stats.Arrivals)
	printTypes(stdout, stats)
	return nil
}

// game is the interactive demo: ebiten calls Update 60 times a second and
// Draw once per frame.
type game struct {
	demo          *demo
	width, height int
	view          scene.View
	hudScale      int
	canvas        *ebitenCanvas
	background    *ebiten.Image // the navmesh, drawn once

	paused    bool
	overlays  scene.Overlays
	behaviour sim.Behaviour
	showHelp  bool
	message   string    // feedback on the last click or key...
	messageAt time.Time // ... shown for messageTime from then

	agents   []scene.Agent
	debug    []scene.AgentDebug
	selected int // agent under the mouse, -1 for none

	started         time.Time
	exitAfter       time.Duration
	screenshot      string
	screenshotSaved bool
	quit            bool
	err             error
	// dragging is the crate the left button drags, -1 for none.
	dragging  int
	obstacles []scene.Obstacle
	// legend is the agent types' legend at the bottom (none with one
	// type).
	legend []scene.LegendEntry
}

func newGame(d *demo, o *options, width, height int) *game {
	g := &game{
		demo:       d,
		width:      width,
		height:     height,
		canvas:     newEbitenCanvas(),
		overlays:   scene.DefaultOverlays,
		behaviour:  d.crowd.Behaviour(),
		showHelp:   true,
		exitAfter:  time.Duration(o.exitAfter * float64(time.Second)),
		screenshot: o.screenshot,
		dragging:   -1,
	}
	g.hudScale = hudScaleFor(width)
	hudHeight := hudLines*render.GlyphHeight*g.hudScale + 4
	legendHeight := 0
	if g.legend = d.legend(); g.legend != nil {
		legendHeight = g.legendHeight()
	}
	g.view = scene.Fit(d.layer.Min, d.layer.Max, width, height-hudHeight-legendHeight, viewMargin)
	g.view.OffsetY += float32(hudHeight)
	return g
}

// keyBinding ties a key to the flag it toggles; the HUD lists the bindings
// and shows which are on.
type keyBinding struct {
	key    ebiten.Key
	label  string
	toggle func(g *game) *bool
}

var overlayKeys = []keyBinding{
	{ebiten.KeyC, "C corridor", func(g *game) *bool { return &g.overlays.Corridor }},
	{ebiten.KeyK, "K corners", func(g *game) *bool { return &g.overlays.Corners }},
	{ebiten.KeyN, "N neighbours", func(g *game) *bool { return &g.overlays.Neighbours }},
	{ebiten.KeyB, "B boundary", func(g *game) *bool { return &g.overlays.Boundary }},
	{ebiten.KeyV, "V samples", func(g *game) *bool { return &g.overlays.AvoidanceSamples }},
	{ebiten.KeyP, "P paths", func(g *game) *bool { return &g.overlays.Paths }},
	{ebiten.KeyT, "T targets", func(g *game) *bool { return &g.overlays.Targets }},
}

var behaviourKeys = []keyBinding{
	{ebiten.Key1, "1 turns", func(g *game) *bool { return &g.behaviour.AnticipateTurns }},
	{ebiten.Key2, "2 visibility", func(g *game) *bool { return &g.behaviour.OptimizeVisibility }},
	{ebiten.Key3, "3 topology", func(g *game) *bool { return &g.behaviour.OptimizeTopology }},
	{ebiten.Key4, "4 avoidance", func(g *game) *bool { return &g.behaviour.ObstacleAvoidance }},
	{ebiten.Key5, "5 separation", func(g *game) *bool { return &g.behaviour.Separation }},
}

// The avoidance methods M cycles through, and what the HUD calls them.
var (
	avoidanceCycle = []crowd.AvoidanceMethod{crowd.AvoidanceAdaptive, crowd.AvoidanceORCA, crowd.AvoidanceGrid}
	avoidanceNames = map[crowd.AvoidanceMethod]string{
		crowd.AvoidanceAdaptive: "adaptive sampling",
		crowd.AvoidanceORCA:     "ORCA",
		crowd.AvoidanceGrid:     "grid sampling (slow)",
	}
)

// nextAvoidance returns the method after m in avoidanceCycle.
func nextAvoidance(m crowd.AvoidanceMethod) crowd.AvoidanceMethod {
	for i, c := range avoidanceCycle {
		if c == m {
			return avoidanceCycle[(i+1)%len(avoidanceCycle)]
		}
	}
	return avoidanceCycle[0]
}

func (g *game) Update() error {
	if g.quit {
		return ebiten.Termination
	}
	if g.started.IsZero() {
		g.started = time.Now()
	}
	g.handleInput()
	if !g.paused || inpututil.IsKeyJustPressed(ebiten.KeyPeriod) {
		if err := g.demo.crowd.Step(1 / float32(ebiten.TPS())); err != nil {
			g.err = err
			return ebiten.Termination
		}
	}
	return nil
}

func (g *game) handleInput() {
	if inpututil.IsKeyJustPressed(ebiten.KeyEscape) || inpututil.IsKeyJustPressed(ebiten.KeyQ) {
		g.quit = true
	}
	if inpututil.IsKeyJustPressed(ebiten.KeySpace) {
		g.paused = !g.paused
	}
	if inpututil.IsKeyJustPressed(ebiten.KeyH) {
		g.showHelp = !g.showHelp
	}
	if inpututil.IsKeyJustPressed(ebiten.KeyW) {
		g.demo.crowd.Wander()
		g.say("wandering: every agent has its own random target")
	}
	if inpututil.IsKeyJustPressed(ebiten.KeyM) {
		next := nextAvoidance(g.demo.crowd.Avoidance())
		if err := g.demo.crowd.SetAvoidance(next); err != nil {
			g.say(err.Error())
		} else {
			g.say("avoidance: " + avoidanceNames[next])
		}
	}
	for _, k := range overlayKeys {
		if inpututil.IsKeyJustPressed(k.key) {
			flag := k.toggle(g)
			*flag = !*flag
		}
	}
	for _, k := range behaviourKeys {
		if inpututil.IsKeyJustPressed(k.key) {
			flag := k.toggle(g)
			*flag = !*flag
			g.demo.crowd.SetBehaviour(g.behaviour)
		}
	}
	if inpututil.IsKeyJustPressed(ebiten.KeyR) {
		g.dropRamp()
	}
	if g.handleObstacles() {
		return
	}
	left := inpututil.IsMouseButtonJustPressed(ebiten.MouseButtonLeft)
	right := inpututil.IsMouseButtonJustPressed(ebiten.MouseButtonRight)
	if !left && !right {
		return
	}
	x, z := g.cursorWorld()
	point, ok := g.demo.crowd.PointAt(x, z, g.demo.layer.Min[1], g.demo.layer.Max[1])
	if !ok {
		g.say("no navmesh there")
		return
	}
	var err error
	if left {
		err = g.demo.crowd.SetTarget(point)
		g.say(fmt.Sprintf("target %.1f %.1f %.1f (W: wander again)", point[0], point[1], point[2]))
	} else {
		err = g.demo.crowd.Spawn(point)
		g.say(fmt.Sprintf("agent added at %.1f %.1f %.1f", point[0], point[1], point[2]))
	}
	if err != nil {
		g.say(err.Error())
	}
}

// cursorWorld returns the world x and z under the mouse.
func (g *game) cursorWorld() (x, z float32) {
	cx, cy := ebiten.CursorPosition()
	return g.view.ToWorld(render.Point{X: float32(cx) + 0.5, Y: float32(cy) + 0.5})
}

// handleObstacles drops a crate at the mouse on O and drags a crate with
// the left button; it reports whether it used the mouse this frame.
func (g *game) handleObstacles() bool {
	x, z := g.cursorWorld()
	if inpututil.IsKeyJustPressed(ebiten.KeyO) {
		point, ok := g.demo.crowd.PointAt(x, z, g.demo.layer.Min[1], g.demo.layer.Max[1])
		switch _, err := g.demo.crowd.DropCrate(point); {
		case !ok:
			g.say("no navmesh there")
		case err != nil:
			g.say(err.Error())
		default:
			g.say("crate dropped: it carves once it stands still (drag it with the mouse)")
		}
	}
	if g.dragging >= 0 {
		if !ebiten.IsMouseButtonPressed(ebiten.MouseButtonLeft) {
			g.dragging = -1
			return true
		}
		if err := g.demo.crowd.MoveObstacle(g.dragging, x, z); err != nil {
			g.say(err.Error())
		}
		return true
	}
	if inpututil.IsMouseButtonJustPressed(ebiten.MouseButtonLeft) {
		if i := g.demo.crowd.ObstacleAt(x, z); i >= 0 {
			g.dragging = i
			return true
		}
	}
	return false
}

// dropRamp drops a crate with a ramp at the mouse (with -dynamic); the
// agents go up it once the navmesh has it.
func (g *game) dropRamp() {
	x, z := g.cursorWorld()
	point, ok := g.demo.crowd.PointAt(x, z, g.demo.layer.Min[1], g.demo.layer.Max[1])
	if !ok {
		g.say("no navmesh there")
		return
	}
	if err := g.demo.crowd.DropRamp(point); err != nil {
		g.say(err.Error())
		return
	}
	g.say("crate and ramp dropped: the agents go up once the navmesh has them")
}

// say shows message on the HUD for a while.
func (g *game) say(message string) {
	g.message, g.messageAt = message, time.Now()
}

func (g *game) Draw(screen *ebiten.Image) {
	// The navmesh is drawn once, and again when the tile cache has changed
	// it (holes carved, doors shut).
	if refreshed := g.demo.refresh(); g.background == nil || refreshed {
		if g.background == nil {
			g.background = ebiten.NewImage(g.width, g.height)
		}
		g.canvas.retarget(g.background)
		g.canvas.Clear(scene.Background)
		g.demo.drawNavmesh(g.canvas, g.view)
		g.drawLegend()
	}
	screen.DrawImage(g.background, nil)
	g.canvas.retarget(screen)
	g.agents = g.demo.crowd.Agents(g.agents)
	var debug []scene.AgentDebug
	g.selected = -1
	if g.overlays.Corridor || g.overlays.Corners || g.overlays.Neighbours || g.overlays.Boundary || g.overlays.AvoidanceSamples {
		// The overlays follow the agent under the mouse, or every agent.
		cx, cy := ebiten.CursorPosition()
		x, z := g.view.ToWorld(render.Point{X: float32(cx) + 0.5, Y: float32(cy) + 0.5})
		selected := g.demo.crowd.Nearest(x, z, 20/g.view.Scale) // within 20 pixels
		if selected >= 0 {
			g.agents[selected].Selected = true
		}
		g.selected = selected
		g.debug = g.demo.crowd.Debug(g.debug, selected)
		debug = g.debug
	}
	g.obstacles = g.demo.crowd.Obstacles(g.obstacles, g.dragging)
	scene.DrawObstacles(g.canvas, g.view, g.obstacles)
	scene.DrawAgents(g.canvas, g.view, g.demo.layers, g.agents, debug, g.overlays)
	g.drawHUD()

	if g.exitAfter > 0 && !g.started.IsZero() && time.Since(g.started) >= g.exitAfter && !g.quit {
		if g.screenshot != "" {
			if err := saveScreenshot(screen, g.screenshot); err != nil {
				g.err = err
			} else {
				g.screenshotSaved = true
			}
		}
		g.quit = true
	}
}

// hudLines is how many lines the HUD has.
const hudLines = 5

// hudScaleFor returns the HUD's font scale in a window this wide: 2 where
// its longest line fits, else 1.
func hudScaleFor(width int) int {
	if width >= 1000 {
		return 2
	}
	return 1
}

// HUD colors: toggles that are on print bright, off dim.
var (
	hudOn  = scene.TextColor
	hudOff = color.RGBA{110, 112, 120, 255}
)

func (g *game) drawHUD() {
	lineHeight := float32(render.GlyphHeight * g.hudScale)
	render.FillRect(g.canvas, 0, 0, float32(g.width), hudLines*lineHeight+4, scene.TextBackground)
	stats := g.demo.crowd.Stats()
	status := fmt.Sprintf("agents %d  fps %.0f  tick %.2f ms  arrivals %d  M: %s",
		stats.Agents, ebiten.ActualFPS(), stats.MillisecondsPerTick(), stats.Arrivals, avoidanceNames[g.demo.crowd.Avoidance()])
	if g.selected >= 0 {
		status += fmt.Sprintf("  agent %d", g.selected)
	}
	if g.paused {
		status += "  PAUSED"
	}
	var stages strings.Builder
	stages.WriteString("ms:")
	for _, s := range stats.Stages {
		fmt.Fprintf(&stages, " %s %.2f", shortStageName(s.Name), float64(s.Time.Microseconds())/1000)
	}
	help := "click: target  right click: add agent  O: crate (drag it)  R: ramp (-dynamic)  space: pause  .: step  W: wander  Q: quit"
	if g.overlays.Corridor || g.overlays.Corners || g.overlays.Neighbours || g.overlays.Boundary || g.overlays.AvoidanceSamples {
		help = "overlays follow the agent under the mouse (all agents when none)  H: help"
	}
	switch {
	case g.message != "" && time.Since(g.messageAt) < messageTime:
		help = g.message
	case !g.showHelp:
		help = ""
	}
	y := float32(2)
	for _, line := range []string{status, stages.String()} {
		g.hudText(y, line)
		y += lineHeight
	}
	g.drawToggles(y, "show:", overlayKeys)
	g.drawToggles(y+lineHeight, "steer:", behaviourKeys)
	g.hudText(y+2*lineHeight, help)
}

// legendHeight is the height of the legend bar at the bottom.
func (g *game) legendHeight() int { return render.GlyphHeight*g.legendScale() + 4 }

// legendScale is the legend's font scale: the HUD's where it fits, else 1.
func (g *game) legendScale() int {
	if scene.LegendWidth(g.legend, g.hudScale)+8 > g.width {
		return 1
	}
	return g.hudScale
}

// drawLegend draws the legend bar of the agent types at the bottom.
func (g *game) drawLegend() {
	if g.legend == nil {
		return
	}
	top := float32(g.height - g.legendHeight())
	render.FillRect(g.canvas, 0, top, float32(g.width), float32(g.height), scene.TextBackground)
	scene.DrawLegend(g.canvas, render.Point{X: 4, Y: top + 2}, g.legendScale(), g.legend)
}

// hudText prints a HUD line, smaller when it would not fit.
func (g *game) hudText(y float32, line string) {
	scale := g.hudScale
	if width, _ := render.TextSize(line); width*scale+8 > g.width {
		scale = 1
	}
	g.canvas.Text(render.Point{X: 4, Y: y}, line, scale, hudOn)
}

// shortStageName abbreviates the crowd's stage names for the HUD.
func shortStageName(name string) string {
	short := map[string]string{
		"PathRequest":      "path",
		"TopologyOptimize": "topo",
		"BoundaryUpdate":   "boundary",
		"Steering":         "steer",
		"VelocitySampling": "avoid",
		"Integrate":        "integrate",
		"CollisionResolve": "collide",
		"SurfaceClamp":     "clamp",
		"OffMeshAnimation": "offmesh",
	}
	if s, ok := short[name]; ok {
		return s
	}
	return strings.ToLower(name)
}

// drawToggles prints a title and the bindings on one HUD line, each bright
// when on and dim when off.
func (g *game) drawToggles(y float32, title string, bindings []keyBinding) {
	x := float32(4)
	print := func(s string, c color.RGBA) {
		g.canvas.Text(render.Point{X: x, Y: y}, s, g.hudScale, c)
		width, _ := render.TextSize(s + " ")
		x += float32(width * g.hudScale)
	}
	print(title, hudOn)
	for _, k := range bindings {
		c := hudOff
		if *k.toggle(g) {
			c = hudOn
		}
		print(k.label+" ", c)
	}
}

func (g *game) Layout(int, int) (int, int) { return g.width, g.height }

// saveScreenshot writes the screen as a PNG.
func saveScreenshot(screen *ebiten.Image, path string) error {
	b := screen.Bounds()
	img := image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	screen.ReadPixels(img.Pix)
	_, err := writeFile(path, func(w io.Writer) error { return png.Encode(w, img) })
	return err
}
