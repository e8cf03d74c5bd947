import {
  asArray,
  asString,
  externalIdFrom,
  isObject,
  isoFrom,
  msFrom,
  sourceLine,
  titleFrom,
  type Json,
  type Message,
  type RecordFormat,
} from './format.ts';

/**
 * Grok (`xai`): `prod-grok-backend.json` is an object whose `conversations`
 * array holds `{conversation, responses}` pairs; the reader streams that array,
 * and counts the elements of the arrays beside it it does not keep.
 */
export const grokExport: RecordFormat = {
  kind: 'record',
  provider: 'xai',
  readerVersion: 1,
  zipMembers: /(^|\/)prod-grok-backend\.json$/,
  notReadArrays: [
    { what: 'projects', key: 'projects' },
    { what: 'tasks', key: 'tasks' },
    { what: 'media posts', key: 'media_posts' },
  ],
  recognizes: (raw) => isObject(raw.conversation) && Array.isArray(raw.responses),
  normalize(raw) {
    const conversation = raw.conversation as Json;
    const externalId = externalIdFrom(conversation.id);
    if (externalId === null) return null;
    const title = titleFrom(conversation.title);
    const responses = asArray(raw.responses)
      .map((entry) => (isObject(entry) && isObject(entry.response) ? entry.response : undefined))
      .filter((response): response is Json => response !== undefined)
      .map((response) => ({ response, time: msFrom(mongoTime(response.create_time)) }));
    const latest = Math.max(-Infinity, ...responses.map(({ time }) => time ?? -Infinity));
    return {
      externalId,
      title,
      updateTime:
        isoFrom(mongoTime(conversation.modify_time)) ??
        (Number.isFinite(latest) ? new Date(latest).toISOString() : null),
      payload: { title: title ?? '', messages: branchMessages(displayedBranch(responses)) },
    };
  },
};

type TimedResponse = { response: Json; time: number | null };

/** Times come as ISO strings, as `{"$date": {"$numberLong": "<ms>"}}` or as `{"$date": "<ISO>"}`. */
function mongoTime(value: unknown): unknown {
  if (!isObject(value)) return value;
  const date = value.$date;
  if (isObject(date) && typeof date.$numberLong === 'string') return Number(date.$numberLong) / 1000;
  return date;
}

/**
 * With `parent_response_id`s the responses form a tree: the branch shown is the
 * chain from the newest response up to its root, reversed. Without any, they
 * are one line, in time order.
 */
function displayedBranch(responses: TimedResponse[]): TimedResponse[] {
  const byTime = [...responses].sort((a, b) => (a.time ?? -Infinity) - (b.time ?? -Infinity));
  if (!responses.some(({ response }) => typeof response.parent_response_id === 'string')) return byTime;
  const byId = new Map(responses.map((entry) => [asString(entry.response._id), entry]));
  const branch: TimedResponse[] = [];
  const seen = new Set<TimedResponse>();
  for (
    let entry = byTime.at(-1);
    entry && !seen.has(entry);
    entry = byId.get(asString(entry.response.parent_response_id))
  ) {
    seen.add(entry);
    branch.push(entry);
  }
  return branch.reverse();
}

/**
 * Each response with something to show is a message. Thinking is the reasoning
 * of its answer; a response of nothing but thinking hands it to the next answer.
 */
function branchMessages(branch: TimedResponse[]): Message[] {
  const messages: Message[] = [];
  let reasoning: string[] = [];
  for (const { response, time } of branch) {
    const user = (asString(response.sender) ?? '').toLowerCase() === 'human';
    if (!user) reasoning.push(...thinking(response));
    const lines = [asString(response.message)?.trim() ?? ''];
    lines.push(...asArray(response.cited_web_search_results).filter(isObject).map(sourceLine));
    for (const _ of asArray(response.generated_image_urls)) lines.push('[image]');
    for (const _ of asArray(response.file_attachments)) lines.push('[file]');
    const content = lines.filter((line) => line !== '').join('\n');
    if (content === '') continue;
    const message: Message = {
      role: user ? 'user' : 'assistant',
      content,
      timestamp: time === null ? null : new Date(time).toISOString(),
    };
    const model = asString(response.model);
    if (!user) {
      if (model) message.model = model;
      if (reasoning.length > 0) message.reasoning = reasoning.join('\n\n');
      reasoning = [];
    }
    messages.push(message);
  }
  // Thinking with no answer after it (a stopped reply) was still shown: an answer of nothing but it.
  if (reasoning.length > 0)
    messages.push({ role: 'assistant', content: '', timestamp: null, reasoning: reasoning.join('\n\n') });
  return messages;
}

/** `thinking_trace`, and each agent's trace of `agent_thinking_traces`. */
function thinking(response: Json): string[] {
  const agents = asArray(response.agent_thinking_traces)
    .filter(isObject)
    .map((agent) => asString(agent.thinking_trace));
  return [asString(response.thinking_trace), ...agents].map((text) => text?.trim() ?? '').filter((text) => text !== '');
}
