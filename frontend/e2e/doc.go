// Package e2e holds the browser tests of the frontend: real Chromium (Debian's
// /usr/bin/chromium, driven with chromedp) against the real HTTP API, store and
// rules, served in-process the way infra/server serves them. A host screen and ten
// phones play whole games through the UI, and every page and every API response a
// phone gets is checked for roles its player may not know.
//
//	go test ./frontend/e2e/                   # make test installs chromium first
//	ARTIFACTS_DIR=/tmp/shots go test ./frontend/e2e/ -run Sport -v
//
// A missing Chromium fails the tests; they never skip.
//
// Screenshots of the key screens in every language go to ARTIFACTS_DIR (default
// frontend/e2e/artifacts/, ignored by git), for a person to look at.
package e2e
