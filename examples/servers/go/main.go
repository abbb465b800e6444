// Command animal-store serves the Animal Store API (spec/animal-store-spec.md)
// with the standard library only: net/http for the server, encoding/json for the bodies.
package main

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"
)

func main() {
	cfg, err := loadConfig()
	if err != nil {
		log.Fatal(err)
	}
	api := &api{store: newStore()}
	gate := &gate{cfg: cfg, limiter: newLimiter(cfg.window, cfg.day)}
	srv := &http.Server{
		Handler:           gate.wrap(api.routes()),
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      30 * time.Second,
		IdleTimeout:       120 * time.Second,
	}

	addr := net.JoinHostPort(cfg.host, cfg.port)
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		log.Fatal(err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	stopped := make(chan struct{})
	go func() {
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(shutdown) // lets the requests in progress finish
		close(stopped)
	}()

	fmt.Printf("listening on http://%s/v1\n", addr)
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		log.Fatal(err)
	}
	<-stopped
}
