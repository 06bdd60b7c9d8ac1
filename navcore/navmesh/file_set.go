package navmesh

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Limits of a MeshSet that SaveSet writes and LoadSet reads.
const (
	// MaxMeshSetSize is the most meshes a set holds.
	MaxMeshSetSize = 256
	// MaxMeshNameLength is the longest mesh name [Units: bytes]
	MaxMeshNameLength = 255
)

// ErrSeveralMeshes is wrapped by Load, LoadFile and LoadBytes for an
// archenav file that holds several meshes (one per agent type): read it with
// LoadSet, LoadSetFile or LoadSetBytes and pick a mesh by name. Taking the
// first one silently would hand one agent type the mesh of another.
var ErrSeveralMeshes = errors.New("the file holds several meshes")

// NamedMesh is one mesh of a MeshSet with its name, typically an agent
// type's ("soldier", "ogre").
type NamedMesh struct {
	// Name is 1..MaxMeshNameLength bytes of UTF-8 without control
	// characters, unique in its set; only a set of one mesh may leave it
	// empty.
	Name string
	// Mesh is the navigation mesh baked for the type.
	Mesh *Mesh
}

// MeshSet holds one navigation mesh per agent type, in order, each under
// its name: what SaveSet writes to one archenav file. The meshes are
// independent (their own parameters and tiles); a set of one unnamed mesh
// is an ordinary mesh file.
type MeshSet []NamedMesh

// Find returns the mesh called name, nil when the set has none.
func (s MeshSet) Find(name string) *Mesh {
	for _, m := range s {
		if m.Name == name {
			return m.Mesh
		}
	}
	return nil
}

// Names returns the names of the set's meshes, in order.
func (s MeshSet) Names() []string {
	names := make([]string, len(s))
	for i, m := range s {
		names[i] = m.Name
	}
	return names
}

// Validate reports what keeps SaveSet from writing the set: no meshes or
// more than MaxMeshSetSize, a nil mesh, a name that is empty (in a set of
// several), too long, not UTF-8, with control characters, or used twice.
func (s MeshSet) Validate() error {
	if len(s) == 0 || len(s) > MaxMeshSetSize {
		return fmt.Errorf("navmesh: mesh set: %d meshes, want 1..%d", len(s), MaxMeshSetSize)
	}
	for i, m := range s {
		if m.Mesh == nil {
			return fmt.Errorf("navmesh: mesh set: mesh %d (%q) is nil", i, m.Name)
		}
	}
	return ValidateMeshNames(s.Names())
}

// ValidateMeshNames reports what keeps a MeshSet from holding meshes of
// these names: no names or more than MaxMeshSetSize, or (unless there is
// one name and it is empty) a name that is empty, longer than
// MaxMeshNameLength bytes, not UTF-8, with control characters, or used
// twice.
func ValidateMeshNames(names []string) error {
	if len(names) == 0 || len(names) > MaxMeshSetSize {
		return fmt.Errorf("navmesh: mesh set: %d meshes, want 1..%d", len(names), MaxMeshSetSize)
	}
	if len(names) == 1 && names[0] == "" {
		return nil
	}
	if err := checkSetNames(names); err != nil {
		return fmt.Errorf("navmesh: mesh set: %w", err)
	}
	return nil
}

// checkSetNames checks the names of a version 2 file.
func checkSetNames(names []string) error {
	for i, name := range names {
		if err := ValidateMeshName(name); err != nil {
			return fmt.Errorf("mesh %d: %w", i, err)
		}
		for j := range i {
			if names[j] == name {
				return fmt.Errorf("mesh %d: name %q already used by mesh %d", i, name, j)
			}
		}
	}
	return nil
}

// ValidateMeshName reports what keeps name from naming a mesh of a set of
// several: empty, longer than MaxMeshNameLength bytes, not UTF-8, or with
// control characters.
func ValidateMeshName(name string) error {
	switch {
	case name == "":
		return errors.New("empty name (only a set of one mesh may leave it unnamed)")
	case len(name) > MaxMeshNameLength:
		return fmt.Errorf("name of %d bytes, longer than %d", len(name), MaxMeshNameLength)
	case !utf8.ValidString(name):
		return fmt.Errorf("name %q is not UTF-8", name)
	case strings.IndexFunc(name, unicode.IsControl) >= 0:
		return fmt.Errorf("name %q has control characters", name)
	}
	return nil
}

// quotedNames joins names for an error message: "soldier", "ogre".
func quotedNames(names []string) string {
	quoted := make([]string, len(names))
	for i, name := range names {
		quoted[i] = fmt.Sprintf("%q", name)
	}
	return strings.Join(quoted, ", ")
}

// SaveSet writes the set as one archenav mesh file: each mesh as Save
// writes it (parameters, tiles with their refs, the polygon flags and areas
// as they are now), under its name, in the set's order; a CRC-32 closes the
// file. A set of one unnamed mesh is written exactly as Save writes that
// mesh (version 1 of the format); any other set as version 2. Each mesh is
// written from one consistent Snapshot. Nothing is written when the set is
// not valid (MeshSet.Validate) or a mesh cannot be encoded.
func SaveSet(w io.Writer, set MeshSet) error {
	if err := set.Validate(); err != nil {
		return err
	}
	if w == nil {
		return errNilWriter("save set")
	}
	saved := &savedSet{names: set.Names(), meshes: make([]*savedMesh, len(set))}
	for i, m := range set {
		saved.meshes[i] = savedFromMesh(m.Mesh)
	}
	file, err := encodeOwnSet(saved)
	if err != nil {
		return err
	}
	if _, err := w.Write(file); err != nil {
		return fmt.Errorf("navmesh: save set: %w", err)
	}
	return nil
}

// LoadSet reads an archenav mesh file written by SaveSet or Save and returns
// its meshes in file order, each rebuilt as Load rebuilds a mesh; a file of
// one mesh written by Save gives a set of one mesh named "". The whole input
// is read and checked before any mesh is built; on any error no set is
// returned.
func LoadSet(r io.Reader) (MeshSet, error) {
	if r == nil {
		return nil, fmt.Errorf("navmesh: load set: nil reader")
	}
	file, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("navmesh: load set: %w", err)
	}
	saved, err := decodeOwnSet(file)
	if err != nil {
		return nil, err
	}
	return setFromSaved(saved)
}

// LoadSetFile reads a navmesh file in any format LoadFile reads and returns
// its meshes with the format found: every mesh of an archenav file under its
// name, or the one mesh of a DNAV, MSET or single-mesh archenav file named
// "". On any error no set is returned.
func LoadSetFile(path string) (MeshSet, Format, error) {
	file, err := os.ReadFile(path)
	if err != nil {
		return nil, FormatUnknown, fmt.Errorf("navmesh: load set: %w", err)
	}
	set, format, err := LoadSetBytes(file)
	if err != nil {
		return nil, format, fmt.Errorf("%w (file %s)", err, path)
	}
	return set, format, nil
}

// LoadSetBytes is LoadSetFile for a file already in memory.
func LoadSetBytes(file []byte) (MeshSet, Format, error) {
	format := DetectFormat(file)
	if format != FormatArchenav {
		m, format, err := LoadBytes(file)
		if err != nil {
			return nil, format, err
		}
		return MeshSet{{Mesh: m}}, format, nil
	}
	saved, err := decodeOwnSet(file)
	if err != nil {
		return nil, format, err
	}
	set, err := setFromSaved(saved)
	if err != nil {
		return nil, format, err
	}
	return set, format, nil
}

// setFromSaved builds every mesh of a decoded file; on error it returns
// none.
func setFromSaved(saved *savedSet) (MeshSet, error) {
	set := make(MeshSet, len(saved.meshes))
	for i, s := range saved.meshes {
		m, err := meshFromSaved(s)
		if err != nil {
			if saved.names[i] != "" {
				return nil, fmt.Errorf("navmesh: load set: mesh %q: %w", saved.names[i], err)
			}
			return nil, err
		}
		set[i] = NamedMesh{Name: saved.names[i], Mesh: m}
	}
	return set, nil
}

// savedFromMesh returns the content of m's file, from one Snapshot: its
// parameters and, per tile, its ref, the polygon flags and areas as they
// are now, and its data as it was added; then its runtime links.
func savedFromMesh(m *Mesh) *savedMesh {
	snapshot := m.Snapshot()
	saved := &savedMesh{params: snapshot.Params(), tiles: make([]savedTile, 0, snapshot.TileCount())}
	forEachTile(snapshot, func(tile *Tile) {
		flags, areas := runtimeFlagsAndAreas(tile)
		saved.tiles = append(saved.tiles, savedTile{ref: tile.Ref(), flags: flags, areas: areas, data: tile.Data})
	})
	saved.links = savedLinks(snapshot)
	return saved
}
