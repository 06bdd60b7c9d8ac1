package tilecache

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/archenav/archenav/internal/ownfile"
	"github.com/archenav/archenav/navcore/navmesh"
)

// ErrSeveralCaches is wrapped by Load for an archenav file that holds
// several caches (one per agent type, see SaveSet): read it with LoadSet
// and pick a cache by name.
var ErrSeveralCaches = errors.New("tilecache: the file holds several caches")

// NamedCache is one cache of a set with its name, typically an agent
// type's: each agent type has a tile cache of its own, its obstacles
// inflated by the type's radius.
type NamedCache struct {
	// Name follows navmesh.ValidateMeshNames: 1..255 bytes of UTF-8
	// without control characters, unique in its set; only a set of one
	// cache may leave it empty.
	Name string
	// Cache is the type's tile cache.
	Cache *Cache
	// Mesh is the navmesh the cache builds its tiles into (LoadSet sets
	// it; SaveSet does not read it).
	Mesh *navmesh.Mesh
}

// SaveSet writes the caches as one archenav tile cache file: each as Save
// writes it (parameters, layers and obstacles with their refs) under its
// name, in order; a CRC-32 closes the file. A set of one unnamed cache is
// written exactly as Save writes that cache; any other set as version 2 of
// the format. Nothing is written when the names are not valid
// (navmesh.ValidateMeshNames) or a cache is nil.
func SaveSet(w io.Writer, caches []NamedCache) error {
	names := make([]string, len(caches))
	for i, c := range caches {
		if c.Cache == nil {
			return fmt.Errorf("tilecache: save set: cache %d (%q) is nil", i, c.Name)
		}
		names[i] = c.Name
	}
	if err := navmesh.ValidateMeshNames(names); err != nil {
		return fmt.Errorf("tilecache: save set: %w", err)
	}
	if w == nil {
		return fmt.Errorf("tilecache: save set: nil writer")
	}
	var file []byte
	if len(caches) == 1 && names[0] == "" {
		c := caches[0].Cache
		c.mu.Lock()
		file = c.encodeOwn()
		c.mu.Unlock()
	} else {
		// appendSection cannot fail, so neither can AppendEntries.
		file, _ = ownfile.AppendEntries(ownFormat.AppendPrefix(nil, ownSetVersion), names, func(out []byte, i int) ([]byte, error) {
			c := caches[i].Cache
			c.mu.Lock()
			defer c.mu.Unlock()
			return c.appendSection(out), nil
		})
		file = ownfile.AppendChecksum(file)
	}
	if _, err := w.Write(file); err != nil {
		return fmt.Errorf("tilecache: save set: %w", err)
	}
	return nil
}

// LoadSet reads a tile cache file and returns its caches in file order,
// each with a new navmesh, as Load restores one: every cache of an archenav
// file under its name, or the one cache of a TSET or single-cache archenav
// file named "". Every layer's tile is queued: run each cache's Update to
// build them. The whole file is checked before anything is built; on any
// error nothing is returned.
func LoadSet(file []byte, options Options) ([]NamedCache, Format, error) {
	format := DetectFormat(file)
	if format != FormatArchenav {
		cache, mesh, format, err := Load(file, options)
		if err != nil {
			return nil, format, err
		}
		return []NamedCache{{Cache: cache, Mesh: mesh}}, format, nil
	}
	saved, err := decodeOwnSet(file)
	if err != nil {
		return nil, format, err
	}
	caches := make([]NamedCache, len(saved.caches))
	for i, s := range saved.caches {
		cache, mesh, err := restore(s.set, s.obstacles, options)
		if err != nil {
			if saved.names[i] != "" {
				err = fmt.Errorf("tilecache: load set: cache %q: %w", saved.names[i], err)
			}
			return nil, format, err
		}
		caches[i] = NamedCache{Name: saved.names[i], Cache: cache, Mesh: mesh}
	}
	return caches, format, nil
}

// quotedNames joins names for an error message: "soldier", "ogre".
func quotedNames(names []string) string {
	quoted := make([]string, len(names))
	for i, name := range names {
		quoted[i] = fmt.Sprintf("%q", name)
	}
	return strings.Join(quoted, ", ")
}
