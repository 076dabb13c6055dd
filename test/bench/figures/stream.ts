// Figure 2: stream decoding. Judged: the decoder's CPU per SSE event against eventsource-parser with JSON.parse per
// event on the same bodies, interleaved in the same run (openai-node's SSE stream as context). Context: the client decoding 50 MB
// of SSE, NDJSON and plain text streamed by the emulator against a raw read of the same socket, with the cheapest
// JavaScript readers as floors.
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { StringDecoder } from 'node:string_decoder';
import { createParser } from 'eventsource-parser';
import { Stream } from 'openai/streaming';
import { ServiceClient } from '../../../src/api/client';
import { decodePieces, StreamDecoder } from '../../../src/api/stream';
import type { InferencePiece } from '../../../src/api/answerText';
import { framedStream, tokensOf } from '../../service/inference';
import type { Framing } from '../../service/emulator';
import { EmulatorProcess } from '../emulatorProcess';
import { bySize, type FigureOptions } from '../figure';
import { runsTable, type FigureResult, type Row } from '../report';
import { fmt, interleave, mbps, range, summarize, type Summary } from '../stats';
import { modelText, repeatTo } from '../text';

const PATH = '/cr/provider_predict_platform_base_oss';
const MODEL = 'oss-reasoner-8b';
const REQUEST = {
  prompt: 'benchmark',
  modelName: MODEL,
  stream: true,
  useRag: false,
  sequentialBudget: 1,
  parallelBudget: 1,
  temperature: 0.7,
};
const ACCEPT = 'text/event-stream, application/x-ndjson, application/json, text/plain';
/**
 * The decoder is judged at most this many times the CPU of eventsource-parser + JSON.parse per event: enough, as the
 * visible latency is in messaging and frames (figure 3), not here (issue 27, part 5).
 */
const PEER_GOAL = 1.5;

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

/** What a reading process does with each chunk besides counting it. */
type Work = 'none' | 'textFloor' | 'byteFloor';

/**
 * The reference (`none`): the body read and discarded. The floors, the cheapest JavaScript decoders on the same
 * socket, with no JSON and no text taken out of events: `textFloor` turns the bytes into text (streaming TextDecoder)
 * and finds each event boundary with one indexOf (`\n\n` for SSE, `\n` for NDJSON, none for plain text);
 * `byteFloor` decodes nothing and reads every byte once in a JavaScript loop, counting line feeds.
 */
function rawRead(
  url: string,
  key: string,
  work: Work = 'none',
  separator = '',
): Promise<{ ms: number; bytes: number; boundaries: number }> {
  const body = JSON.stringify({
    prompt: REQUEST.prompt,
    query_only: REQUEST.prompt,
    model_name: MODEL,
    stream: true,
    use_rag: false,
    sequential_budget: 1,
    parallel_budget: 1,
    temperature: 0.7,
  });
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    let bytes = 0;
    let boundaries = 0;
    const utf8 = new TextDecoder();
    const req = http.request(
      `${url}${PATH}`,
      {
        method: 'POST',
        headers: { 'X-API-Key': key, 'Content-Type': 'application/json', Accept: ACCEPT, 'Content-Length': Buffer.byteLength(body) },
      },
      (res) => {
        res.on('data', (c: Buffer) => {
          bytes += c.length;
          if (work === 'textFloor') {
            const text = utf8.decode(c, { stream: true });
            if (separator !== '') {
              for (let at = text.indexOf(separator); at !== -1; at = text.indexOf(separator, at + separator.length)) boundaries++;
            }
          } else if (work === 'byteFloor') {
            for (let i = 0; i < c.length; i++) if (c[i] === 0x0a) boundaries++;
          }
        });
        res.on('end', () => resolve({ ms: performance.now() - t0, bytes, boundaries }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** Characters of a decoder's piece: answer text, or reasoning (none in these bodies). */
function deltaLength(d: InferencePiece): number {
  return d.text.length;
}

async function clientRead(client: ServiceClient): Promise<{ ms: number; cpuMs: number; chars: number }> {
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  let chars = 0;
  for await (const piece of client.infer(REQUEST)) chars += piece.text.length;
  const cpu = process.cpuUsage(c0);
  return { ms: performance.now() - t0, cpuMs: (cpu.user + cpu.system) / 1e3, chars };
}

/** CPU ms of `fn`: median of `reps` runs after one warm-up. */
function cpuMs(fn: () => number, reps: number): number {
  let sink = fn();
  const runs: number[] = [];
  for (let r = 0; r < reps; r++) {
    const c0 = process.cpuUsage();
    sink += fn();
    const c = process.cpuUsage(c0);
    runs.push((c.user + c.system) / 1e3);
  }
  if (sink < 0) throw new Error('unreachable');
  return summarize(runs).median;
}

/** CPU ms of the async `fn`: median of `reps` runs after one warm-up (all in memory: no waiting counts). */
async function cpuMsAsync(fn: () => Promise<number>, reps: number): Promise<number> {
  let sink = await fn();
  const runs: number[] = [];
  for (let r = 0; r < reps; r++) {
    const c0 = process.cpuUsage();
    sink += await fn();
    const c = process.cpuUsage(c0);
    runs.push((c.user + c.system) / 1e3);
  }
  if (sink < 0) throw new Error('unreachable');
  return summarize(runs).median;
}

interface Peers {
  label: string;
  events: number;
  bytes: number;
  /** CPU ms per pass over the body, each decoder reading every event's text (medians). */
  ours: number;
  eventsourceParser: number;
  openai: number;
  /** Ours / eventsource-parser + JSON.parse, pass by pass, interleaved. */
  ratio: Summary;
  /** decodePieces (the async path infer yields from, inline reasoning included) / eventsource-parser + JSON.parse. */
  piecesRatio: Summary;
  pieces: number;
}

/**
 * The same SSE body in 64 KiB chunks through our decoder (as infer uses it), through eventsource-parser fed
 * streaming TextDecoder text with JSON.parse per event, and through openai-node's `Stream.fromSSEResponse` (its public
 * `openai/streaming` export) over an in-memory Response. Each adds up the text of every event, and all must agree.
 */
async function peers(label: string, tokenChars: number, block: string, reps: number): Promise<Peers> {
  const tokens = tokensOf(block, tokenChars);
  const body = Buffer.from(framedStream('sse', tokens));
  const chunks: Buffer[] = [];
  for (let at = 0; at < body.length; at += 64 * 1024) chunks.push(body.subarray(at, at + 64 * 1024));
  const ours = () => {
    const d = new StreamDecoder('sse');
    let n = 0;
    for (const c of chunks) for (const t of d.push(c)) n += deltaLength(t);
    for (const t of d.end()) n += deltaLength(t);
    return n;
  };
  const esp = () => {
    let n = 0;
    const parser = createParser({
      onEvent: (e) => {
        if (e.data !== '[DONE]') n += (JSON.parse(e.data) as { token: string }).token.length;
      },
    });
    const utf8 = new TextDecoder();
    for (const c of chunks) parser.feed(utf8.decode(c, { stream: true }));
    parser.feed(utf8.decode());
    return n;
  };
  const oai = async () => {
    let i = 0;
    const readable = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (i < chunks.length) controller.enqueue(chunks[i++]!);
        else controller.close();
      },
    });
    let n = 0;
    for await (const item of Stream.fromSSEResponse<{ token: string }>(new Response(readable), new AbortController())) {
      n += item.token.length;
    }
    return n;
  };
  const pieces = async () => {
    async function* source(): AsyncGenerator<Uint8Array> {
      yield* chunks;
    }
    let n = 0;
    for await (const p of decodePieces(source(), { contentType: 'text/event-stream' })) n += p.text.length;
    return n;
  };
  const expected = tokens.join('').length;
  const got = { ours: ours(), esp: esp(), oai: await oai(), pieces: await pieces() };
  if (got.ours !== expected || got.esp !== expected || got.oai !== expected || got.pieces !== expected) {
    throw new Error(`${label}: decoded lengths differ: ${JSON.stringify(got)}, expected ${expected}`);
  }
  const cpuOf = async (fn: () => number | Promise<number>) => {
    const c0 = process.cpuUsage();
    if ((await fn()) !== expected) throw new Error(`${label}: a pass decoded a different length`);
    const c = process.cpuUsage(c0);
    return (c.user + c.system) / 1e3;
  };
  const paired = await interleave(
    reps,
    () => cpuOf(esp),
    () => cpuOf(ours),
  );
  const pairedPieces = await interleave(
    reps,
    () => cpuOf(esp),
    () => cpuOf(pieces),
  );
  return {
    label,
    events: tokens.length,
    bytes: body.length,
    ours: summarize(paired.subject).median,
    eventsourceParser: summarize(paired.ref).median,
    openai: await cpuMsAsync(oai, reps),
    ratio: summarize(paired.ratios),
    piecesRatio: summarize(pairedPieces.ratios),
    pieces: summarize(pairedPieces.subject).median,
  };
}

interface InMemory {
  label: string;
  framing: 'sse' | 'ndjson';
  events: number;
  bytes: number;
  /** CPU ms per pass over the body, by decoder. */
  decoder: number;
  textFloor: number;
  byteFloor: number;
  textDecoder: number;
  stringDecoder: number;
}

/**
 * The decoder alone, in memory (no socket, CPU time): the body in 64 KiB chunks through the decoder, through the two
 * floors, and through the two UTF-8 decoders Node offers.
 */
function inMemory(label: string, framing: 'sse' | 'ndjson', tokenChars: number, block: string, reps: number): InMemory {
  const tokens = tokensOf(block, tokenChars);
  const body = Buffer.from(framedStream(framing, tokens));
  const chunks: Buffer[] = [];
  for (let at = 0; at < body.length; at += 64 * 1024) chunks.push(body.subarray(at, at + 64 * 1024));
  const separator = framing === 'sse' ? '\n\n' : '\n';
  const decode = () => {
    const d = new StreamDecoder(framing);
    let n = 0;
    for (const c of chunks) for (const s of d.push(c)) n += deltaLength(s);
    for (const s of d.end()) n += deltaLength(s);
    return n;
  };
  const expected = tokens.join('').length;
  if (decode() !== expected) throw new Error(`${framing}: the decoder decoded ${decode()} chars, expected ${expected}`);
  return {
    label,
    framing,
    events: tokens.length,
    bytes: body.length,
    decoder: cpuMs(decode, reps),
    textFloor: cpuMs(() => {
      const utf8 = new TextDecoder();
      let n = 0;
      for (const c of chunks) {
        const text = utf8.decode(c, { stream: true });
        for (let at = text.indexOf(separator); at !== -1; at = text.indexOf(separator, at + separator.length)) n++;
      }
      return n;
    }, reps),
    byteFloor: cpuMs(() => {
      let n = 0;
      for (const c of chunks) for (let i = 0; i < c.length; i++) if (c[i] === 0x0a) n++;
      return n;
    }, reps),
    textDecoder: cpuMs(() => {
      const utf8 = new TextDecoder();
      let n = 0;
      for (const c of chunks) n += utf8.decode(c, { stream: true }).length;
      return n;
    }, reps),
    stringDecoder: cpuMs(() => {
      const utf8 = new StringDecoder('utf8');
      let n = 0;
      for (const c of chunks) n += utf8.write(c).length;
      return n;
    }, reps),
  };
}

interface Measured {
  label: string;
  eventBytes: number;
  raw: number;
  client: number;
  ratio: number;
  nsPerEvent: number;
  cpuNsPerEvent: number;
  textFloor: number;
  byteFloor: number;
}

export async function run(options: FigureOptions): Promise<FigureResult> {
  const wire = bySize(options, { full: 50e6, quick: 5e6, tiny: 50e3 });
  const runs = bySize(options, { full: 5, quick: 3, tiny: 1 });
  const sweepRuns = bySize(options, { full: 3, quick: 2, tiny: 1 });
  const floorRuns = bySize(options, { full: 3, quick: 2, tiny: 1 });
  const em = await EmulatorProcess.start({ tokenIntervalMs: 0, streamChunkBytes: 64 * 1024 });
  const block = modelText(bySize(options, { full: 1_000_000, quick: 1_000_000, tiny: 20_000 }));
  const cases: Case[] = [
    { label: 'SSE', framing: 'sse', tokenChars: 0, judged: true },
    { label: 'NDJSON', framing: 'ndjson', tokenChars: 0, judged: true },
    { label: 'plain text', framing: 'text', tokenChars: 0, judged: true },
    ...[64, 256, 1024, 4096].map((n): Case => ({ label: `SSE, ${n}-char tokens`, framing: 'sse', tokenChars: n, judged: false })),
  ];
  const rows: Row[] = [];
  const sweep: (string | number)[][] = [];
  const judged: Measured[] = [];
  try {
    for (const c of cases) {
      const key = `bench-${c.framing}`;
      await em.setKey(key, { models: [MODEL], framing: c.framing });
      const { text, bytes, events } = sized(c.framing, c.tokenChars, wire, block);
      await em.configure({ responseText: text, streamTokenChars: c.tokenChars });
      const client = new ServiceClient({ baseUrl: em.url, apiKey: key });
      const separator = c.framing === 'sse' ? '\n\n' : c.framing === 'ndjson' ? '\n' : '';
      // Warm-up, checked: same bytes on the wire, every character decoded, every event boundary found by the floor.
      const raw0 = await rawRead(em.url, key);
      if (raw0.bytes !== bytes) throw new Error(`${c.label}: raw read got ${raw0.bytes} bytes, expected ${bytes}`);
      const floor0 = await rawRead(em.url, key, 'textFloor', separator);
      if (separator !== '' && floor0.boundaries < events) {
        throw new Error(`${c.label}: the floor found ${floor0.boundaries} boundaries for ${events} events`);
      }
      let decoded = '';
      for await (const d of client.infer(REQUEST)) decoded += d.text;
      if (decoded !== text) {
        throw new Error(`${c.label}: the client decoded ${decoded.length} chars, expected ${text.length} (different text)`);
      }
      decoded = '';
      const cpu: number[] = [];
      const paired = await interleave(
        c.judged ? runs : sweepRuns,
        async () => mbps(bytes, (await rawRead(em.url, key)).ms),
        async () => {
          const r = await clientRead(client);
          if (r.chars !== text.length) throw new Error(`${c.label}: decoded ${r.chars} chars, expected ${text.length}`);
          cpu.push(r.cpuMs);
          return mbps(bytes, r.ms);
        },
        0,
      );
      const s = summarize(paired.subject);
      const r = summarize(paired.ref);
      const q = summarize(paired.ratios);
      const eventBytes = bytes / events;
      const nsPerEvent = ((bytes / s.median / 1e6) * 1e9) / events;
      const cpuNsPerEvent = (summarize(cpu).median * 1e6) / events;
      if (!c.judged) {
        sweep.push([
          c.label,
          fmt(bytes / 1e6, 0),
          fmt(eventBytes, 0),
          events,
          fmt(s.median),
          fmt(r.median),
          fmt(q.median),
          range(q),
          fmt(nsPerEvent, 0),
          fmt(cpuNsPerEvent, 0),
          '—',
          '—',
        ]);
        continue;
      }
      // Context: the floors, each paired with its own raw read.
      const floor = async (work: Work) => {
        const p = await interleave(
          floorRuns,
          async () => mbps(bytes, (await rawRead(em.url, key)).ms),
          async () => mbps(bytes, (await rawRead(em.url, key, work, separator)).ms),
          0,
        );
        return { ...summarize(p.ratios), mbps: summarize(p.subject).median };
      };
      const textFloor = await floor('textFloor');
      const byteFloor = await floor('byteFloor');
      const m: Measured = {
        label: c.label,
        eventBytes,
        raw: r.median,
        client: s.median,
        ratio: q.median,
        nsPerEvent,
        cpuNsPerEvent,
        textFloor: textFloor.median,
        byteFloor: byteFloor.median,
      };
      judged.push(m);
      sweep.push([
        c.label,
        fmt(bytes / 1e6, 0),
        fmt(eventBytes, 0),
        events,
        fmt(s.median),
        fmt(r.median),
        fmt(q.median),
        range(q),
        fmt(nsPerEvent, 0),
        fmt(cpuNsPerEvent, 0),
        fmt(textFloor.median),
        fmt(byteFloor.median),
      ]);
      const title = `2. Stream decoding, ${c.label} (${fmt(bytes / 1e6, 0)} MB, ~${fmt(eventBytes, 0)} B/event)`;
      rows.push({
        figure: `${title}, over the socket`,
        subject: `${fmt(s.median)} MB/s`,
        reference: `${fmt(r.median)} MB/s raw read`,
        ratio: fmt(q.median),
        spread: `ratio ${range(q)}; floors: decode + indexOf ${fmt(textFloor.median)}, byte loop ${fmt(byteFloor.median)} of raw`,
        goal: '(context)',
        met: undefined,
      });
    }
  } finally {
    await em.close();
  }
  const memReps = bySize(options, { full: 7, quick: 3, tiny: 1 });
  const memBlock = bySize(options, { full: block, quick: block.slice(0, 200_000), tiny: block });
  const peerCases = [await peers('SSE', 0, memBlock, memReps), await peers('SSE, 1024-char tokens', 1024, memBlock, memReps)];
  const peerRows: Row[] = peerCases.flatMap((x): Row[] => {
    const ns = (ms: number) => (ms * 1e6) / x.events;
    const title = `2. Stream decoding, ${x.label} (${fmt(x.bytes / 1e6, 1)} MB in memory, ${x.events.toLocaleString('en-US')} events)`;
    return [
      {
        figure: `${title}: CPU per event of the decoder`,
        subject: `${fmt(ns(x.ours), 0)} ns`,
        reference: `${fmt(ns(x.eventsourceParser), 0)} ns eventsource-parser + JSON.parse`,
        ratio: fmt(x.ratio.median),
        spread: `ratio ${range(x.ratio)} over ${memReps} interleaved passes; openai-node ${fmt(ns(x.openai), 0)} ns`,
        goal: `≤ ${PEER_GOAL}× eventsource-parser + JSON.parse`,
        met: x.ratio.median <= PEER_GOAL,
      },
      {
        figure: `${title}: CPU per event through decodePieces (async, a piece per event, inline reasoning)`,
        subject: `${fmt(ns(x.pieces), 0)} ns`,
        reference: `eventsource-parser + JSON.parse`,
        ratio: fmt(x.piecesRatio.median),
        spread: `ratio ${range(x.piecesRatio)} over ${memReps} interleaved passes`,
        goal: '(context)',
        met: undefined,
      },
    ];
  });
  rows.unshift(...peerRows);
  const [memSse, memNd, memLong] = [
    inMemory('SSE', 'sse', 0, memBlock, memReps),
    inMemory('NDJSON', 'ndjson', 0, memBlock, memReps),
    inMemory('SSE, 1024-char tokens', 'sse', 1024, memBlock, memReps),
  ];
  const mem = [memSse, memNd, memLong];
  const memRows = mem.flatMap((x) => {
    const line = (name: string, ms: number): string[] => [x.label, name, fmt(x.bytes / ms / 1e3, 0), fmt((ms * 1e6) / x.events, 0)];
    return [
      line('the decoder (lines, events, JSON)', x.decoder),
      line('floor: decode + indexOf per event', x.textFloor),
      line('floor: byte loop', x.byteFloor),
      line('UTF-8 only: TextDecoder (streaming)', x.textDecoder),
      line('UTF-8 only: StringDecoder', x.stringDecoder),
    ];
  });
  const details = [
    runsTable(
      [
        'Case',
        'MB',
        'B/event',
        'Events',
        'Client MB/s',
        'Raw MB/s',
        'Ratio (median)',
        'Ratio range',
        'Client ns/event (wall)',
        'Client CPU ns/event',
        'Floor ratio: decode + indexOf',
        'Floor ratio: byte loop',
      ],
      sweep,
    ),
    '',
    runsTable(['Body', 'Decoder', 'MB per CPU second', 'CPU ns/event'], memRows),
  ];
  const section = ['## 2. Stream decoding', '', ...details].join('\n');
  return { rows, section };
}
