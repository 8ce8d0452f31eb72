// The scenarios run by the packed client on Bun against the server whose URLs are the first argument.
import { runScenarios } from '../app/scenarios.mjs';

console.log(JSON.stringify(await runScenarios(JSON.parse(process.argv[2]))));
process.exit(0);
