package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
)

// maxBodyBytes caps a request body (the spec sets no maximum length of name).
const maxBodyBytes = 1 << 20

type apiError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Status  int    `json:"status"`
}

// newPet is the body of createPet; pointers tell a missing member from a zero value.
type newPet struct {
	Name       *string
	CategoryID *int64
	Status     *string
}

// UnmarshalJSON reads the members by their exact names and refuses null ones.
// encoding/json's own struct decoding would take "Name" or "CATEGORYID" for
// name and categoryId (it matches case-insensitively), and a null status as no status.
func (in *newPet) UnmarshalJSON(data []byte) error {
	var members map[string]json.RawMessage
	if err := json.Unmarshal(data, &members); err != nil {
		return err
	}
	fields := map[string]any{"name": &in.Name, "categoryId": &in.CategoryID, "status": &in.Status}
	for name, dst := range fields {
		raw, ok := members[name]
		if !ok {
			continue
		}
		if string(raw) == "null" {
			return fmt.Errorf("%s must not be null", name)
		}
		if err := json.Unmarshal(raw, dst); err != nil {
			var typeErr *json.UnmarshalTypeError
			if errors.As(err, &typeErr) {
				typeErr.Field = name
			}
			return err
		}
	}
	return nil
}

var petStatuses = map[string]bool{"available": true, "pending": true, "sold": true}

type api struct {
	store *store
}

func (a *api) routes() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/v1/pets", a.pets)
	mux.HandleFunc("/v1/pets/", a.pet)
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, "not_found", "no resource at "+r.URL.Path)
	})
	return mux
}

func (a *api) pets(w http.ResponseWriter, r *http.Request) {
	switch r.Method {
	case http.MethodGet, http.MethodHead:
		a.listPets(w, r)
	case http.MethodPost:
		a.createPet(w, r)
	default:
		methodNotAllowed(w, "GET, HEAD, POST")
	}
}

func (a *api) listPets(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	limit := 20
	if v := q.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 100 {
			writeError(w, http.StatusBadRequest, "invalid_parameter", "limit must be an integer from 1 to 100")
			return
		}
		limit = n
	}
	status := q.Get("status")
	if status != "" && !petStatuses[status] {
		writeError(w, http.StatusBadRequest, "invalid_parameter", "status must be one of available, pending, sold")
		return
	}
	writeJSON(w, http.StatusOK, a.store.list(status, limit))
}

func (a *api) createPet(w http.ResponseWriter, r *http.Request) {
	// The idiomatic json.NewDecoder(r.Body).Decode: it reads the first JSON value and leaves what follows unread, a
	// reading RFC 8259 §9 allows (the suite warns about it: HYGIENE-JSON-EXTENSION).
	var in newPet
	err := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxBodyBytes)).Decode(&in)
	var tooLarge *http.MaxBytesError
	if errors.As(err, &tooLarge) {
		writeError(w, http.StatusRequestEntityTooLarge, "body_too_large", fmt.Sprintf("the body exceeds %d bytes", maxBodyBytes))
		return
	}
	if errors.Is(err, io.EOF) {
		err = errors.New("a JSON body is required")
	}
	if err == nil {
		err = in.validate()
	}
	if err != nil {
		writeError(w, http.StatusBadRequest, "invalid_body", describe(err))
		return
	}
	pet := Pet{Name: *in.Name, CategoryID: *in.CategoryID}
	if in.Status != nil {
		pet.Status = *in.Status
	}
	writeJSON(w, http.StatusCreated, a.store.add(pet))
}

func (in *newPet) validate() error {
	switch {
	case in.Name == nil:
		return errors.New("name is required")
	case in.CategoryID == nil:
		return errors.New("categoryId is required")
	case in.Status != nil && !petStatuses[*in.Status]:
		return errors.New("status must be one of available, pending, sold")
	}
	return nil
}

// describe turns a decoding error into a message for the client, without Go's type names.
func describe(err error) string {
	var typeErr *json.UnmarshalTypeError
	var syntaxErr *json.SyntaxError
	switch {
	case errors.As(err, &typeErr) && typeErr.Field == "":
		return "the body must be a JSON object"
	case errors.As(err, &typeErr):
		return fmt.Sprintf("%s has the wrong type (got a JSON %s)", typeErr.Field, typeErr.Value)
	case errors.As(err, &syntaxErr):
		return fmt.Sprintf("malformed JSON at byte %d", syntaxErr.Offset)
	}
	return err.Error()
}

// pet serves GET /pets/{petId}, deprecated: every answer says so (RFC 9745, RFC 8594).
func (a *api) pet(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		methodNotAllowed(w, "GET, HEAD")
		return
	}
	h := w.Header()
	h.Set("Deprecation", "@1704067200") // 1 January 2024
	h.Set("Sunset", "Thu, 05 Dec 2030 00:00:00 GMT")
	h.Set("Link", `</v1/pets>; rel="successor-version"`)

	id, err := strconv.ParseInt(strings.TrimPrefix(r.URL.Path, "/v1/pets/"), 10, 64)
	pet, found := a.store.get(id)
	if err != nil || !found {
		writeError(w, http.StatusNotFound, "not_found", "no animal with this id")
		return
	}
	writeJSON(w, http.StatusOK, pet)
}

func methodNotAllowed(w http.ResponseWriter, allow string) {
	w.Header().Set("Allow", allow)
	writeError(w, http.StatusMethodNotAllowed, "method_not_allowed", "allowed methods: "+allow)
}

func writeError(w http.ResponseWriter, status int, code, message string) {
	writeJSON(w, status, apiError{Code: code, Message: message, Status: status})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
