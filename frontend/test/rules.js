// The rules' schema as the server serves it (GET /api/rules), from the fixture
// a Go test keeps equal to the engine's (frontend/e2e TestRulesFixture).
import { readFileSync } from 'node:fs';

export const schema = JSON.parse(readFileSync(new URL('./testdata/rules.json', import.meta.url), 'utf8'));
