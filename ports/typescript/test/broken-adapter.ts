#!/usr/bin/env node
/**
 * The adapter with deliberate faults, for the conformance kit's own tests only (built into
 * dist-test/, never packed): `--break=NAME[,NAME]` (or CHUNKSPEC_PORT_BREAK=NAME) enables the
 * named faults of src/faults.ts, then the ordinary adapter runs.
 */

import { enableFaults } from "../src/faults.js";

const flag = process.argv.find((a) => a.startsWith("--break="));
const names = flag?.slice("--break=".length) ?? process.env["CHUNKSPEC_PORT_BREAK"] ?? "";
enableFaults(names.split(",").filter((n) => n.length > 0));
await import("../src/adapter.js");
