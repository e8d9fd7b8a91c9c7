# City Sleeps: build, run, test and deploy.
#
#   make run          the whole game on this machine (PORT=8080, DATA_DIR=.data)
#   make test         installs what the tests need, lints, runs every test
#   make soak         every test at full size under the race detector
#   make bench        benchmarks, and the Lambda size and init-time report
#   make deploy       sam build + sam deploy (--guided the first time) + upload the site
#   make delete       the stack, its table and its site, all of it
#
# `sam build` calls the build-<LogicalId> targets (BuildMethod: makefile).

SHELL := bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := build

GO       ?= go
PORT     ?= 8080
DATA_DIR ?= .data
# The stack and region: what the guided deploy saved in samconfig.toml, so
# that make upload and make delete reach the stack it made; else citysleeps
# and the AWS CLI's own region.
samconfig = $(shell sed -n 's/^$(1) *= *"\(.*\)"/\1/p' samconfig.toml 2>/dev/null | head -1)
STACK    ?= $(or $(call samconfig,stack_name),citysleeps)
REGION   ?= $(call samconfig,region)
AWS_CLI   = aws $(if $(REGION),--region $(REGION))

# Tools the Makefile installs into bin/ at pinned versions.
BIN                 := $(CURDIR)/bin
STATICCHECK_VERSION := v0.8.2
RIE_VERSION         := v0.0.0-20261030222936-bef5c4ba774d
STATICCHECK         := $(BIN)/staticcheck
RIE                 := $(BIN)/aws-lambda-rie

# The whole suite takes a few minutes on two cores; the timeout only stops a
# hang, and sits above every test's own deadline (the load tool's games: 10m
# each, an evening's two rounds 21m).
TEST_TIMEOUT ?= 30m

# Lambda builds: provided.al2023 on arm64 runs a static binary named bootstrap.
# LAMBDA_ARCH=amd64 builds one this (x86) machine can run, for the runtime test.
LAMBDA_ARCH ?= arm64
LAMBDA_BUILD = GOOS=linux GOARCH=$(LAMBDA_ARCH) CGO_ENABLED=0 $(GO) build \
	-tags lambda.norpc -trimpath -ldflags='-s -w'

# Root, or sudo for the one step that installs a system package.
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: build run test test-go test-frontend soak bench lint tools npm chromium \
	build-CreateFunction build-JoinFunction build-ReadFunction build-ActFunction \
	sam-build sam-local deploy site upload plan delete clean

## build: the local server, as bin/citysleeps
build:
	$(GO) build -trimpath -o bin/citysleeps ./infra/server

## run: build and start the local server (PORT, DATA_DIR, PUBLIC_URL, RATE_LIMIT)
run: build
	PORT=$(PORT) DATA_DIR=$(DATA_DIR) ./bin/citysleeps

## test: everything CI runs
test: npm chromium lint $(RIE) test-go test-frontend

# make test's passes, one after another so that none slows another:
#  - the race detector looks at the server's own concurrency: the packages
#    whose code runs many requests at once on shared memory (RACED: the
#    service, the stores, the HTTP API, the local server), with -short and a
#    few examples of each property (RAPID_CHECKS), since a few games show a
#    race as well as many. A package that drives the server from outside
#    (the bots, the load tool, the browser tests, the deploy checks) is not
#    raced: its games are simulations that the detector makes five to ten
#    times slower and finds nothing in, and the server they drive is raced
#    on its own. A new package of the server's goes in RACED; a test in a
#    RACED package that plays whole games one goroutine at a time goes in
#    SEQUENTIAL (the detector has nothing to find there either);
#  - SEQUENTIAL without the detector, beside every other package's tests,
#    also -short; each runs its packages' benchmarks once too
#    (-benchtime=1x), so that none breaks unseen between make bench runs, in
#    the same processes (dynalite started once). These two run side by side:
#    the load tool's games mostly wait on the server's poll hints, which
#    leaves a core to the other;
#  - the browser tests alone: their Go side only drives Chromium against the
#    server, whose packages are raced on their own, and their time is
#    Chromium's; in three passes, the whole games (WHOLE_GAMES) first, two at
#    a time (GAMES_A, GAMES_B), then the rest, so that no game starts late
#    behind the screens' audits and each pass keeps well within four minutes
#    on two cores. The four games at once took 200-235 s, the two pairs 91 s
#    and 124 s: the same cores' work, in passes half as long.
# No test judges how long the machine takes: each waits for what the game
# promises, and its own deadline only stops a hang. TEST_TIMEOUT is the last
# guard, above every test's own, so that a hung test's message is its own.
# make soak runs every test at full size under the race detector.
RACED      := ./shared/service/... ./shared/store/... ./shared/httpapi/... ./infra/server/...
SEQUENTIAL := ^(TestPlayWholeGames|TestPropertyStoredSize|TestEndlessGameStaysInOneReadUnit|TestLongStoryKeepsViewsSmall|TestLobbyChurnStaysSmall|TestStoredSizeOfFinishedSportGame)$$
GAMES_A    := ^Test(Classic|Party)Game$$
GAMES_B    := ^Test(Maniac|Sport)Game$$
WHOLE_GAMES := ^Test(Classic|Maniac|Party|Sport)Game$$
SHORT      := RAPID_CHECKS=10 $(GO) test -short -timeout $(TEST_TIMEOUT)
test-go:
	$(SHORT) -race -skip '$(SEQUENTIAL)' $(RACED)
	$(SHORT) -run '$(SEQUENTIAL)' -bench . -benchtime=1x $(RACED) & whole=$$!; \
	$(SHORT) -bench . -benchtime=1x $$($(GO) list ./... | grep -v -e /frontend/e2e $(patsubst ./%/...,-e /%,$(RACED))); \
	rest=$$?; wait $$whole && exit $$rest
	$(SHORT) -run '$(GAMES_A)' ./frontend/e2e/...
	$(SHORT) -run '$(GAMES_B)' ./frontend/e2e/...
	$(SHORT) -skip '$(WHOLE_GAMES)' ./frontend/e2e/...

## soak: every test at full size under the race detector, the properties
## at rapid's 100 examples (RAPID_CHECKS for more): slower than make test
soak: npm chromium $(RIE)
	$(GO) test -race -timeout 60m ./...

# The frontend's own unit tests (node's test runner), when it has them.
test-frontend: npm
	@if [ -d frontend/test ]; then cd frontend && node --test test/; fi

## bench: the benchmarks, the Lambda binary sizes and init times, the load
## runs, a club's evening on DynamoDB (40 phones, 4 tables, 3 rounds: its
## `evening:` line), then the real games (80 of them, and a sweep of hand-over
## lengths drawn to docs/handover.svg); it ends with the loadgen's `table:`
## and `fixed:` lines
bench: npm $(RIE)
	$(GO) test -run '^$$' -bench . -benchmem -timeout $(TEST_TIMEOUT) ./...
	$(GO) test -run 'TestLambdaRuntime' -v -count=1 -timeout $(TEST_TIMEOUT) ./infra/harness/deploytest | \
		awk '/Lambda functions|through CloudFront/ {p=1} p && /^[[:space:]]*$$/ {p=0} p || /^(--- |ok|FAIL)/'
	$(GO) run ./infra/harness/loadgen/cmd/loadgen -store dynamo -games 20 -real 0 -json bin/load-dynamo.json
	$(GO) run ./infra/harness/loadgen/cmd/loadgen -store dynamo -games 0 -real 2 -evenings 1 -json bin/load-evening.json
	$(GO) run ./infra/harness/loadgen/cmd/loadgen -games 100 -json bin/load-bolt.json -svg docs/handover.svg

## lint: gofmt, go vet, staticcheck and a tidy go.mod
lint: $(STATICCHECK)
	@unformatted=$$(gofmt -l $$($(GO) list -f '{{.Dir}}' ./...)); \
	if [ -n "$$unformatted" ]; then echo "gofmt needed:"; echo "$$unformatted"; exit 1; fi
	$(GO) vet ./...
	$(STATICCHECK) ./...
	@$(GO) mod tidy -diff || { echo "go.mod/go.sum are not tidy: run go mod tidy"; exit 1; }

tools: $(STATICCHECK) $(RIE)

$(STATICCHECK):
	GOBIN=$(BIN) $(GO) install honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION)

# AWS's Lambda Runtime Interface Emulator, for the Lambda runtime test.
$(RIE):
	GOBIN=$(BIN) $(GO) install github.com/aws/aws-lambda-runtime-interface-emulator/cmd/aws-lambda-rie@$(RIE_VERSION)

# dynalite (the tests' DynamoDB) and anything else package.json lists, once.
npm: node_modules/.package-lock.json
node_modules/.package-lock.json: package.json package-lock.json
	npm ci --no-audit --no-fund

# Debian's Chromium, for the browser tests; installed only when missing.
chromium:
	@if [ ! -x /usr/bin/chromium ]; then \
		$(SUDO) apt-get update && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y chromium; \
	fi

## build-<LogicalId>: one Lambda function's bootstrap in ARTIFACTS_DIR (sam build)
build-CreateFunction: ; $(call lambda,create)
build-JoinFunction:   ; $(call lambda,join)
build-ReadFunction:   ; $(call lambda,read)
build-ActFunction:    ; $(call lambda,act)

define lambda
@if [ -z "$(ARTIFACTS_DIR)" ]; then echo "set ARTIFACTS_DIR (sam build does)"; exit 1; fi
$(LAMBDA_BUILD) -o $(ARTIFACTS_DIR)/bootstrap ./functions/$(1)
endef

## sam-build, sam-local, deploy: for those with the AWS SAM CLI (sam-local needs Docker)
sam-build:
	sam build

# sam-local: SAM CLI's local API against dynalite on loopback (never a real
# table): samlocal starts dynalite, writes the env-vars file and runs SAM CLI
# with it. SAM_LOCAL_FLAGS reach the functions' containers: on Linux the host's
# network; with Docker Desktop, SAM_LOCAL_HOST=host.docker.internal and
# SAM_LOCAL_FLAGS= instead.
SAM_LOCAL_HOST  ?= 127.0.0.1
SAM_LOCAL_FLAGS ?= --docker-network host
sam-local: npm sam-build
	$(GO) run ./infra/harness/samlocal/cmd/samlocal -env-vars bin/sam-env.json -host $(SAM_LOCAL_HOST) -- \
		sam local start-api --port $(PORT) --env-vars bin/sam-env.json $(SAM_LOCAL_FLAGS)

deploy: sam-build
	sam deploy $(if $(wildcard samconfig.toml),,--guided --stack-name $(STACK))
	$(MAKE) upload

# stack-output prints a shell function, out NAME, that reads one of the
# stack's outputs.
stack-output = out() { $(AWS_CLI) cloudformation describe-stacks --stack-name $(STACK) \
		--query "Stacks[0].Outputs[?OutputKey=='$$1'].OutputValue" --output text; }

# site: the site as deployed (site.Build, in Go: no Node), in SITE_DIR:
# index.html and favicon.svg, and under assets/ the bundled modules, languages
# and style sheet, each named by a hash of its content.
SITE_DIR ?= bin/site
site:
	$(GO) run ./infra/server/site/cmd/sitebuild -o $(SITE_DIR) frontend

# upload: the built site to the bucket. First the hashed files, kept a year
# by browsers and CloudFront (immutable) and never deleted by an upload, so
# that a page still running the last version finds its modules; then the
# rest, asked for again on each load (no-cache), older files deleted; then a
# CloudFront invalidation. The bucket's Cache-Control is what CloudFront sends
# (SiteHeadersPolicy adds no-cache only where a file has none).
upload: site
	$(stack-output); \
	bucket=$$(out SiteBucketName); dist=$$(out DistributionId); \
	$(AWS_CLI) s3 sync $(SITE_DIR)/assets/ "s3://$$bucket/assets/" --cache-control 'public, max-age=31536000, immutable'; \
	$(AWS_CLI) s3 sync $(SITE_DIR)/ "s3://$$bucket/" --delete --exclude 'assets/*' --cache-control 'no-cache'; \
	$(AWS_CLI) cloudfront create-invalidation --distribution-id "$$dist" --paths '/*' >/dev/null; \
	echo "Site: $$(out SiteUrl)"

## plan: the distribution on a CloudFront flat-rate pricing plan, PLAN=free
## (the default) or pro, in a stack of its own in us-east-1, $(STACK)-plan
## (infra/pricing-plan.yaml); PLAN=none deletes that stack
PLAN      ?= free
PLAN_CFN   = aws --region us-east-1 cloudformation
plan:
	@if [ "$(PLAN)" = none ]; then \
		$(PLAN_CFN) delete-stack --stack-name $(STACK)-plan; \
		$(PLAN_CFN) wait stack-delete-complete --stack-name $(STACK)-plan; \
		exit 0; \
	fi; \
	$(stack-output); dist=$$(out DistributionId); \
	acl=$$(aws cloudfront get-distribution-config --id "$$dist" --query DistributionConfig.WebACLId --output text); \
	if [ -z "$$acl" ] || [ "$$acl" = None ]; then \
		echo "the distribution has no web ACL, which a plan needs: deploy with WebAclArn (README)"; exit 1; \
	fi; \
	$(PLAN_CFN) deploy --template-file infra/pricing-plan.yaml --stack-name $(STACK)-plan --no-fail-on-empty-changeset \
		--parameter-overrides DistributionId="$$dist" WebAclArn="$$acl" PlanTier="$$(tr a-z A-Z <<< '$(PLAN)')"

## delete: the whole stack, with its games and its site: its plan's stack
## first (CloudFront deletes no distribution on a plan), the bucket emptied,
## since CloudFormation deletes no bucket that holds files
delete:
	$(MAKE) plan PLAN=none
	$(stack-output); \
	bucket=$$(out SiteBucketName); \
	if [ -n "$$bucket" ] && [ "$$bucket" != None ]; then $(AWS_CLI) s3 rm "s3://$$bucket/" --recursive; fi; \
	sam delete --stack-name $(STACK) $(if $(REGION),--region $(REGION)) --no-prompts

clean:
	rm -rf bin .aws-sam
