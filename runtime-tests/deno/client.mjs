// The scenarios run by the packed client on Deno against the server whose URLs are the first argument.
import { runScenarios } from '../app/scenarios.mjs';

console.log(JSON.stringify(await runScenarios(JSON.parse(Deno.args[0]))));
Deno.exit(0);
