// Command etcd runs a single-member embedded etcd for the test control plane.
//
//	etcd --data-dir DIR --listen-client-urls http://127.0.0.1:P1 --listen-peer-urls http://127.0.0.1:P2
//
// It exits when the server stops or on SIGTERM/SIGINT.
package main

import (
	"flag"
	"log"
	"net/url"
	"os"
	"os/signal"
	"syscall"
	"time"

	"go.etcd.io/etcd/server/v3/embed"
)

func mustURL(s string) url.URL {
	u, err := url.Parse(s)
	if err != nil {
		log.Fatalf("bad url %q: %v", s, err)
	}
	return *u
}

func main() {
	dataDir := flag.String("data-dir", "", "data directory (required)")
	clientURL := flag.String("listen-client-urls", "http://127.0.0.1:2379", "client URL (one)")
	peerURL := flag.String("listen-peer-urls", "http://127.0.0.1:2380", "peer URL (one)")
	name := flag.String("name", "default", "member name")
	quotaBytes := flag.Int64("quota-backend-bytes", 8<<30, "backend size quota")
	logLevel := flag.String("log-level", "warn", "zap log level")
	flag.Parse()
	if *dataDir == "" {
		log.Fatal("--data-dir is required")
	}

	cfg := embed.NewConfig()
	cfg.Name = *name
	cfg.Dir = *dataDir
	cu, pu := mustURL(*clientURL), mustURL(*peerURL)
	cfg.ListenClientUrls = []url.URL{cu}
	cfg.AdvertiseClientUrls = []url.URL{cu}
	cfg.ListenPeerUrls = []url.URL{pu}
	cfg.AdvertisePeerUrls = []url.URL{pu}
	cfg.InitialCluster = cfg.InitialClusterFromName(cfg.Name)
	cfg.QuotaBackendBytes = *quotaBytes
	cfg.LogLevel = *logLevel
	cfg.UnsafeNoFsync = true // test data only

	e, err := embed.StartEtcd(cfg)
	if err != nil {
		log.Fatalf("start etcd: %v", err)
	}
	select {
	case <-e.Server.ReadyNotify():
		log.Printf("etcd ready on %s", cu.String())
	case <-time.After(60 * time.Second):
		e.Server.Stop()
		log.Fatal("etcd took too long to start")
	}

	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGTERM, syscall.SIGINT)
	select {
	case s := <-sig:
		log.Printf("etcd: %v, shutting down", s)
		e.Close()
	case err := <-e.Err():
		log.Fatalf("etcd: %v", err)
	}
}
