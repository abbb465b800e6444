package main

import "sync"

// Pet is an animal record; status is left out when the pet was created without one.
type Pet struct {
	ID         int64  `json:"id"`
	Name       string `json:"name"`
	CategoryID int64  `json:"categoryId"`
	Status     string `json:"status,omitempty"`
}

// store keeps the catalogue in memory, in creation order.
type store struct {
	mu   sync.RWMutex
	pets []Pet // pets[i] has id i+1
}

func newStore() *store {
	return &store{}
}

// add assigns the next id to p and stores it.
func (s *store) add(p Pet) Pet {
	s.mu.Lock()
	defer s.mu.Unlock()
	p.ID = int64(len(s.pets)) + 1
	s.pets = append(s.pets, p)
	return p
}

func (s *store) get(id int64) (Pet, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if id < 1 || id > int64(len(s.pets)) {
		return Pet{}, false
	}
	return s.pets[id-1], true
}

// list returns up to limit pets, oldest first, with the given status ("" for any).
func (s *store) list(status string, limit int) []Pet {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([]Pet, 0, limit)
	for _, p := range s.pets {
		if len(out) == limit {
			break
		}
		if status == "" || p.Status == status {
			out = append(out, p)
		}
	}
	return out
}
