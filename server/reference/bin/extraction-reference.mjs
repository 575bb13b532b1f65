#!/usr/bin/env node
// `extraction-reference`: the reference service on its own (main.ts), its settings from the environment
// (reference-settings.ts, docs/reference-service.md). The package ships TypeScript; tsx, one of its
// dependencies, runs it.
import { register } from 'tsx/esm/api';

register();
await import('../main.ts');
