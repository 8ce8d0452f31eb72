/**
 * The input-required (MRTR) fixtures the 2026-07-28 server scenarios of
 * `@modelcontextprotocol/conformance` 0.2.0-alpha.12 ask for (`input-required-result-*`), written
 * with the era-blind handler API only: `ctx.elicit`/`ctx.sample`/`ctx.listRoots`, whose `inputKey`
 * gives each question the key the scenario expects. Under 2026-07-28 each becomes a round; under
 * 2025 revisions the same handlers send real requests.
 */
import type { McpServer, RequestContext } from '@mcpkit/server';

const NAME = 'What is your name?';

function form(property: string, type: 'string' | 'boolean') {
  const schema = type === 'string' ? { type: 'string' as const } : { type: 'boolean' as const };
  return { type: 'object' as const, properties: { [property]: schema }, required: [property] };
}

function sampledText(content: unknown): string {
  const block = Array.isArray(content) ? content[0] : content;
  return typeof block === 'object' && block !== null && 'text' in block ? String(block.text) : '';
}

type Ctx = RequestContext;
const askName = (ctx: Ctx) =>
  ctx.elicit({ message: NAME, requestedSchema: form('name', 'string') }, { inputKey: 'user_name' });
const askConfirm = (ctx: Ctx) =>
  ctx.elicit({ message: 'Please confirm', requestedSchema: form('ok', 'boolean') }, { inputKey: 'confirm' });
const askGreeting = (ctx: Ctx) =>
  ctx.sample(
    { messages: [{ role: 'user', content: { type: 'text', text: 'Generate a greeting' } }], maxTokens: 50 },
    { inputKey: 'greeting' },
  );

/** Registers the `test_input_required_result_*` tools and prompt on `server`. */
export function registerInputRequiredFixtures(server: McpServer): void {
  server.tool(
    'test_input_required_result_elicitation',
    { description: 'Asks the user a name' },
    async (_a, ctx) => {
      const answer = await askName(ctx);
      return `Hello, ${String(answer.content?.name ?? 'stranger')}!`;
    },
  );
  server.tool(
    'test_input_required_result_sampling',
    { description: 'Asks the client model' },
    async (_a, ctx) => {
      const reply = await ctx.sample(
        {
          messages: [{ role: 'user', content: { type: 'text', text: 'What is the capital of France?' } }],
          maxTokens: 100,
        },
        { inputKey: 'capital_question' },
      );
      return `The model said: ${sampledText(reply.content)}`;
    },
  );
  server.tool(
    'test_input_required_result_list_roots',
    { description: 'Lists the client roots' },
    async (_a, ctx) => {
      const { roots } = await ctx.listRoots({ inputKey: 'client_roots' });
      return `Roots: ${roots.map((root) => root.uri).join(', ')}`;
    },
  );
  // The answer is accepted only with the sealed requestState it belongs to, so reaching the return
  // means the state was verified.
  server.tool(
    'test_input_required_result_request_state',
    { description: 'Asks to confirm' },
    async (_a, ctx) => {
      const answer = await askConfirm(ctx);
      return `state-ok: confirmed=${String(answer.content?.ok)}`;
    },
  );
  server.tool(
    'test_input_required_result_tampered_state',
    { description: 'Asks to confirm' },
    async (_a, ctx) => {
      const answer = await askConfirm(ctx);
      return `confirmed=${String(answer.content?.ok)}`;
    },
  );
  server.tool(
    'test_input_required_result_multiple_inputs',
    { description: 'Asks three things at once' },
    async (_a, ctx) => {
      const [name, greeting, { roots }] = await Promise.all([
        askName(ctx),
        askGreeting(ctx),
        ctx.listRoots({ inputKey: 'client_roots' }),
      ]);
      return `${sampledText(greeting.content)} ${String(name.content?.name)} (${roots.length} roots)`;
    },
  );
  server.tool(
    'test_input_required_result_multi_round',
    { description: 'Asks twice, in turn' },
    async (_a, ctx) => {
      const name = await ctx.elicit(
        { message: 'Step 1: What is your name?', requestedSchema: form('name', 'string') },
        { inputKey: 'step1' },
      );
      const color = await ctx.elicit(
        { message: 'Step 2: What is your favorite color?', requestedSchema: form('color', 'string') },
        { inputKey: 'step2' },
      );
      return `${String(name.content?.name)} likes ${String(color.content?.color)}`;
    },
  );
  // Asks only what the request's envelope declared: a kind it did not declare rejects (-32021),
  // and the handler goes on with the rest.
  server.tool(
    'test_input_required_result_capabilities',
    { description: 'Asks what it may' },
    async (_a, ctx) => {
      const [name, greeting] = await Promise.allSettled([askName(ctx), askGreeting(ctx)]);
      const who = name.status === 'fulfilled' ? String(name.value.content?.name) : 'someone';
      return greeting.status === 'fulfilled'
        ? `${sampledText(greeting.value.content)} ${who}`
        : `Hello, ${who}`;
    },
  );
  server.prompt(
    'test_input_required_result_prompt',
    { description: 'Asks which context to use' },
    async (_a, ctx) => {
      const answer = await ctx.elicit(
        { message: 'What context should the prompt use?', requestedSchema: form('context', 'string') },
        { inputKey: 'user_context' },
      );
      return `Use this context: ${String(answer.content?.context)}`;
    },
  );
}
