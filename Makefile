# editaudit: `make demo` and `make test` set everything up on a fresh Debian
# machine (they run scripts/setup.sh first, which installs only what is missing).
SHELL := /bin/bash
export PATH := $(PATH):/usr/local/go/bin:$(HOME)/go/bin
GO ?= go
BIN := bin/editaudit
CORPUS ?= $(if $(wildcard ../shared/corpus/real),$(abspath ../shared/corpus/real),)

.PHONY: setup build test demo bench fuzz lint clean image

setup:
	@bash scripts/setup.sh

build:
	$(GO) build -o $(BIN) ./cmd/editaudit

# The whole suite, LibreOffice included. EDITAUDIT_CORPUS enables the tests
# over the real documents when ../shared/corpus/real exists.
test: setup build lint
	EDITAUDIT_CORPUS=$(CORPUS) $(GO) test -count=1 -timeout 30m ./...
	# The race detector over the concurrent packages; -short skips the long
	# LibreOffice and corpus tests already run above.
	EDITAUDIT_CORPUS=$(CORPUS) $(GO) test -count=1 -short -race -timeout 30m ./pixeldiff/... ./corpus/... ./synth/... ./audit/... ./baseline/... ./serve/... ./mcp/...

# Generates a contract, applies a damaging edit, audits it and writes a report.
demo: setup build
	@bash scripts/demo.sh

bench: setup build
	EDITAUDIT_CORPUS=$(CORPUS) $(GO) test -run '^$$' -bench . -benchmem ./...

# Seeds run as regular tests in `make test`; this runs each fuzz target.
FUZZTIME ?= 1m
fuzz:
	@bash scripts/fuzz.sh $(FUZZTIME)

# gofmt, go vet, staticcheck (installed by setup), and go.mod as `go mod
# tidy` leaves it. Part of `make test`.
lint:
	@test -z "$$(gofmt -l .)" || { echo "gofmt -l:"; gofmt -l .; exit 1; }
	$(GO) vet ./...
	staticcheck ./...
	@cp go.mod /tmp/editaudit-go.mod.$$$$ && cp go.sum /tmp/editaudit-go.sum.$$$$ && $(GO) mod tidy && \
	  if ! cmp -s go.mod /tmp/editaudit-go.mod.$$$$ || ! cmp -s go.sum /tmp/editaudit-go.sum.$$$$; then \
	    echo "go mod tidy changes go.mod/go.sum: run it and commit"; cp /tmp/editaudit-go.mod.$$$$ go.mod; cp /tmp/editaudit-go.sum.$$$$ go.sum; rm -f /tmp/editaudit-go.*.$$$$; exit 1; fi; \
	  rm -f /tmp/editaudit-go.*.$$$$

# The container image (deploy/Dockerfile, built from the repository root):
# what the Kubernetes job runs. Needs docker (or IMAGE_BUILDER=podman).
IMAGE ?= editaudit:dev
IMAGE_BUILDER ?= docker
image:
	$(IMAGE_BUILDER) build -f deploy/Dockerfile -t $(IMAGE) .

clean:
	rm -rf bin demo-out
