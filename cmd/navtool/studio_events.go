package main

import (
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"
)

// maxStudioStreams bounds the event streams open at once (tabs).
const maxStudioStreams = 32

// studioEvents sends server-sent events to every open tab: "frame" with a
// crowd frame, "state" when the navmesh or the bake changed. A tab that
// reads too slowly misses frames instead of holding the crowd up.
type studioEvents struct {
	mu      sync.Mutex
	streams map[chan studioEvent]struct{}
	closed  bool
}

// studioEvent is one server-sent event.
type studioEvent struct {
	name string
	data []byte
}

func newStudioEvents() *studioEvents {
	return &studioEvents{streams: map[chan studioEvent]struct{}{}}
}

// publish sends an event to every stream that has room for it.
func (e *studioEvents) publish(name string, data []byte) {
	if data == nil {
		data = []byte("{}")
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	for stream := range e.streams {
		select {
		case stream <- studioEvent{name, data}:
		default:
		}
	}
}

// subscribe opens a stream; cancel closes it.
func (e *studioEvents) subscribe() (<-chan studioEvent, func(), error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.closed {
		return nil, nil, errors.New("the studio is closing")
	}
	if len(e.streams) >= maxStudioStreams {
		return nil, nil, fmt.Errorf("%d tabs are open already", maxStudioStreams)
	}
	stream := make(chan studioEvent, 8)
	e.streams[stream] = struct{}{}
	cancel := func() {
		e.mu.Lock()
		defer e.mu.Unlock()
		if _, ok := e.streams[stream]; ok {
			delete(e.streams, stream)
			close(stream)
		}
	}
	return stream, cancel, nil
}

// close ends every stream.
func (e *studioEvents) close() {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.closed = true
	for stream := range e.streams {
		delete(e.streams, stream)
		close(stream)
	}
}

// serveEvents streams events to one tab until it goes or the studio
// closes.
func (s *studio) serveEvents(w http.ResponseWriter, r *http.Request) {
	flusher, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "streaming unsupported", http.StatusInternalServerError)
		return
	}
	stream, cancel, err := s.events.subscribe()
	if err != nil {
		http.Error(w, err.Error(), http.StatusServiceUnavailable)
		return
	}
	defer cancel()
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	fmt.Fprint(w, "event: hello\ndata: {}\n\n")
	flusher.Flush()
	keepAlive := time.NewTicker(15 * time.Second)
	defer keepAlive.Stop()
	for {
		select {
		case <-r.Context().Done():
			return
		case <-keepAlive.C:
			fmt.Fprint(w, ": keep-alive\n\n")
		case event, ok := <-stream:
			if !ok {
				return
			}
			fmt.Fprintf(w, "event: %s\ndata: %s\n\n", event.name, event.data)
		}
		flusher.Flush()
	}
}
