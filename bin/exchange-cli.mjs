#!/usr/bin/env node
// Installed as the package's bin: runs the TypeScript CLI through tsx's loader.
import { register } from 'tsx/esm/api'

register()
await import('../src/app/cli.ts')
