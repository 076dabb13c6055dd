// Figure 2: the client decoding 50 MB of SSE, of NDJSON and of plain text streamed by the emulator, against a raw
// read of the same bytes over the same kind of socket (node:http, the default agent, body read and discarded).
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { ServiceClient } from '../../../src/api/client';
import { framedStream, tokensOf } from '../../service/inference';
import type { Framing } from '../../service/emulator';
import { EmulatorProcess } from '../emulatorProcess';
import type { FigureOptions } from '../figure';
import { runsTable, type FigureResult, type Row } from '../report';
import { fmt, interleave, mbps, range, summarize } from '../stats';
import { modelText, repeatTo } from '../text';

const PATH = '/cr/provider_predict_platform_base_oss';
const MODEL = 'oss-reasoner-8b';
const REQUEST = { prompt: 'benchmark', modelName: MODEL, stream: true, useRag: false, sequentialBudget: 1, parallelBudget: 1, temperature: 0.7 };
const ACCEPT = 'text/event-stream, application/x-ndjson, application/json, text/plain';
const GOAL = 0.8;

interface Case {
  label: string;
  framing: Framing;
  /** 0: the emulator's word tokens. */
  tokenChars: number;
  /** Judged against the goal (the three framings) or shown for context (event-size sweep). */
  judged: boolean;
}

/** Text whose framed stream is about `wireBytes` long; also the framed size and the event count. */
function sized(framing: Framing, tokenChars: number, wireBytes: number, block: string): { text: string; bytes: number; events: number } {
  const sample = Buffer.byteLength(framedStream(framing, tokensOf(block, tokenChars)));
  const text = repeatTo(block, Math.round((block.length * wireBytes) / sample));
  const tokens = tokensOf(text, tokenChars);
  return { text, bytes: Buffer.byteLength(framedStream(framing, tokens)), events: tokens.length };
}

/** The reference: the body read and discarded. With `decode`, also turned into text (what any text client must do). */
function rawRead(url: string, key: string, decode = false): Promise<{ ms: number; bytes: number }> {
  const body = JSON.stringify({ prompt: REQUEST.prompt, query_only: REQUEST.prompt, model_name: MODEL, stream: true, use_rag: false, sequential_budget: 1, parallel_budget: 1, temperature: 0.7 });
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    let bytes = 0;
    const utf8 = decode ? new TextDecoder() : undefined;
    const req = http.request(`${url}${PATH}`, {
      method: 'POST',
      headers: { 'X-API-Key': key, 'Content-Type': 'application/json', Accept: ACCEPT, 'Content-Length': Buffer.byteLength(body) },
    }, (res) => {
      res.on('data', (c: Buffer) => {
        bytes += c.length;
        if (utf8) utf8.decode(c, { stream: true });
      });
      res.on('end', () => resolve({ ms: performance.now() - t0, bytes }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function clientRead(client: ServiceClient): Promise<{ ms: number; chars: number }> {
  const t0 = performance.now();
  let chars = 0;
  for await (const delta of client.inferStream(REQUEST)) chars += delta.length;
  return { ms: performance.now() - t0, chars };
}

/** ns per JSON.parse of one `{"token": ...}` payload of each size: the floor of any decoder that parses every event. */
function jsonParseCost(tokenChars: number, block: string): { eventBytes: number; ns: number } {
  const tokens = tokensOf(block.slice(0, 400_000), tokenChars).slice(0, 20_000);
  const payloads = tokens.map((token) => JSON.stringify({ token }));
  let sink = 0;
  for (const p of payloads) sink += (JSON.parse(p) as { token: string }).token.length; // warm-up
  const rounds = Math.max(1, Math.floor(200_000 / payloads.length));
  const t0 = performance.now();
  for (let r = 0; r < rounds; r++) for (const p of payloads) sink += (JSON.parse(p) as { token: string }).token.length;
  const ns = ((performance.now() - t0) * 1e6) / (rounds * payloads.length);
  if (sink < 0) throw new Error('unreachable');
  const eventBytes = Buffer.byteLength(framedStream('sse', tokens)) / tokens.length;
  return { eventBytes, ns };
}

export async function run(options: FigureOptions): Promise<FigureResult> {
  const wire = options.quick ? 5e6 : 50e6;
  const runs = options.quick ? 3 : 5;
  const sweepRuns = options.quick ? 2 : 3;
  const em = await EmulatorProcess.start({ tokenIntervalMs: 0, streamChunkBytes: 64 * 1024 });
  const block = modelText(1_000_000);
  const cases: Case[] = [
    { label: 'SSE', framing: 'sse', tokenChars: 0, judged: true },
    { label: 'NDJSON', framing: 'ndjson', tokenChars: 0, judged: true },
    { label: 'plain text', framing: 'text', tokenChars: 0, judged: true },
    ...[64, 256, 1024, 4096].map((n): Case => ({ label: `SSE, ${n}-char tokens`, framing: 'sse', tokenChars: n, judged: false })),
  ];
  const rows: Row[] = [];
  const details: string[] = [];
  const sweep: (string | number)[][] = [];
  const judged: { label: string; eventBytes: number; raw: number; decodedRaw: number; client: number; ratio: number; nsPerEvent: number }[] = [];
  try {
    for (const c of cases) {
      const key = `bench-${c.framing}`;
      await em.setKey(key, { models: [MODEL], framing: c.framing });
      const { text, bytes, events } = sized(c.framing, c.tokenChars, wire, block);
      await em.configure({ responseText: text, streamTokenChars: c.tokenChars });
      const client = new ServiceClient({ baseUrl: em.url, apiKey: key });
      // Warm-up pair, checked: same bytes on the wire, every character decoded.
      const raw0 = await rawRead(em.url, key);
      if (raw0.bytes !== bytes) throw new Error(`${c.label}: raw read got ${raw0.bytes} bytes, expected ${bytes}`);
      let decoded = '';
      for await (const d of client.inferStream(REQUEST)) decoded += d;
      if (decoded !== text) throw new Error(`${c.label}: the client decoded ${decoded.length} chars, expected ${text.length} (different text)`);
      decoded = '';
      const paired = await interleave(
        c.judged ? runs : sweepRuns,
        async () => mbps(bytes, (await rawRead(em.url, key)).ms),
        async () => {
          const r = await clientRead(client);
          if (r.chars !== text.length) throw new Error(`${c.label}: decoded ${r.chars} chars, expected ${text.length}`);
          return mbps(bytes, r.ms);
        },
        0,
      );
      // Context: the same raw read plus UTF-8 decoding, the part of the work no text decoder can skip.
      const decodedRuns: number[] = [];
      for (let i = 0; i < (c.judged ? 3 : 1); i++) decodedRuns.push(mbps(bytes, (await rawRead(em.url, key, true)).ms));
      const decodedRef = summarize(decodedRuns);
      const s = summarize(paired.subject);
      const r = summarize(paired.ref);
      const q = summarize(paired.ratios);
      const eventBytes = bytes / events;
      if (c.judged) {
        rows.push({
          figure: `2. Stream decoding, ${c.label} (${fmt(bytes / 1e6, 0)} MB, ~${fmt(eventBytes, 0)} B/event)`,
          subject: `${fmt(s.median)} MB/s`,
          reference: `${fmt(r.median)} MB/s raw`,
          ratio: fmt(q.median),
          spread: `ratio ${range(q)}; client ${range(s, ' MB/s', 0)}`,
          goal: `≥ ${GOAL} of raw`,
          met: q.median >= GOAL,
        });
      }
      const nsPerEvent = (bytes / s.median / 1e6) * 1e9 / events;
      if (c.judged) judged.push({ label: c.label, eventBytes, raw: r.median, decodedRaw: decodedRef.median, client: s.median, ratio: q.median, nsPerEvent });
      sweep.push([c.label, fmt(bytes / 1e6, 0), fmt(eventBytes, 0), events, fmt(s.median), fmt(r.median), fmt(decodedRef.median), fmt(q.median), range(q), fmt(nsPerEvent, 0)]);
    }
    const parse = [16, 64, 256, 1024, 4096].map((n) => jsonParseCost(n, block));
    details.push(
      runsTable(['Case', 'MB', 'B/event', 'Events', 'Client MB/s', 'Raw MB/s', 'Raw + UTF-8 decode MB/s', 'Ratio (median)', 'Ratio range', 'Client ns/event'], sweep),
      '',
      'One `JSON.parse` of a `{"token": ...}` payload, measured here (the floor of any decoder that parses each event):',
      '',
      runsTable(
        ['SSE event size (B)', 'ns per JSON.parse', 'Ceiling from parsing alone (MB/s)'],
        parse.map((p) => [fmt(p.eventBytes, 0), fmt(p.ns, 0), fmt((p.eventBytes * 1e3) / p.ns, 0)]),
      ),
    );
  } finally {
    await em.close();
  }
  const sse = judged.find((j) => j.label === 'SSE');
  const text = judged.find((j) => j.label === 'plain text');
  const why: string[] = [];
  if (judged.some((j) => j.ratio < GOAL) && sse && text) {
    const budget = (j: { eventBytes: number; raw: number }) => (j.eventBytes / (GOAL * j.raw * 1e6)) * 1e9;
    why.push(
      '',
      '**Why the goal is missed.** The reference only moves bytes; the client must also make text of them and cut it into',
      `events. (1) UTF-8 decoding alone (the "raw + UTF-8 decode" column, the same read plus a streaming \`TextDecoder\`)`,
      `already runs at ${fmt(text.decodedRaw, 0)} MB/s for the plain-text body, ${fmt(text.decodedRaw / text.raw)} of the raw read: plain text, which`,
      `does nothing else, reaches ${fmt(text.ratio)}. (2) Per event: at ~${fmt(sse.eventBytes, 0)} B per SSE event, 0.8 of the raw read leaves`,
      `${fmt(budget(sse), 0)} ns per event for everything (find the line ends, read the field, take the text out of the JSON, hand it on);`,
      `the client spends ${fmt(sse.nsPerEvent, 0)} ns, and one \`JSON.parse\` of the payload alone costs more than the budget (table above). Larger`,
      'events narrow the gap (sweep), but each event still costs a few string operations. (3) In practice a model streams',
      `at most a few thousand tokens a second: 2,000 events/s at ${fmt(sse.nsPerEvent, 0)} ns are ${fmt((2000 * sse.nsPerEvent) / 1e7, 3)} % of a core.`,
      '',
      '**Changed in the product for this figure** (2bd69e5): `readStreamPayload` reads `{"<text field>":"<string>"}` without',
      'building an object (the string sliced, or parsed alone when it has escapes; same result as the general reader, tested),',
      "the decoder counts an ASCII line of a non-ASCII chunk by its length instead of `Buffer.byteLength`, and",
      '`inferStream` yields the deltas of one socket read as one string (`coalesce`; the playground appends deltas, so it',
      'is unaffected). Before, this harness measured 21.6 MB/s for SSE (0.04 of raw) and 17.6 MB/s for NDJSON (0.05), 5 MB',
      "bodies at load ~4; the CPU profile showed JSON.parse + `findText` at about 0.5 µs and one await at about 0.35 µs per",
      'event. Left: a per-event lane for `data: {"token":"..."}` lines that skips line/field objects entirely (estimated 2×',
      'for small events), and `StringDecoder` instead of `TextDecoder` (about 4× faster on ASCII chunks; the replacement',
      "characters for invalid UTF-8 must then be shown to stay the same).",
    );
  }
  const section = [
    '## 2. Stream decoding',
    '',
    `Method: the emulator runs in its own process with \`tokenIntervalMs: 0\` and \`streamChunkBytes: 65536\` (the paced`,
    `stream's exact bytes, written back to back in 64 KiB writes, so the client and not the emulator sets the pace).`,
    `Its \`responseText\` is model-like text (mostly ASCII, a non-ASCII word about every 40) sized so the framed body is`,
    `${fmt(wire / 1e6, 0)} MB. Subject: \`ServiceClient.inferStream\` (axios stream, idle watchdog, \`decodeStream\`), every delta`,
    `consumed. Reference: a plain \`node:http\` request on the same default agent to the same route, body read and`,
    `discarded. ${runs} interleaved pairs (raw, client) after a checked warm-up (same byte count; decoded text identical to`,
    `the response text); ${sweepRuns} pairs for the event-size sweep. Ratio = client MB/s ÷ raw MB/s, pair by pair.`,
    '',
    ...details,
    ...why,
  ].join('\n');
  return { rows, section };
}
