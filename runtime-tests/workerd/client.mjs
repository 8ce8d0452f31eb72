// The scenarios run by the packed client inside a Worker: GET /?urls=<JSON> answers their results.
import { runScenarios } from '../app/scenarios.mjs';

export default {
  async fetch(request) {
    const urls = new URL(request.url).searchParams.get('urls');
    if (!urls) return new Response('ready'); // the driver's "is it listening" probe
    return Response.json(await runScenarios(JSON.parse(urls)));
  },
};
