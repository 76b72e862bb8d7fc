#!/usr/bin/env node
// `schedlab`: registers tsx so Node 20 can load the TypeScript CLI, then runs it.
import { register } from 'tsx/esm/api';

register();
await import('../engine/cli/main.ts');
