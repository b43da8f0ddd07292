// BullMQ as its users debounce a heartbeat: one delayed job per entity, its job id the entity's id; every heartbeat
// removes the job and adds it again with the new delay. Run by the peers benchmark in a process of its own:
//   node bullmq-peer.mjs PORT
// stdin: one line per batch, "DEADLINE_MS ID ID ..."; stdout: "ready", then one line per fired job, its id.
// A batch is applied before the next line is read, so a Redis that cannot keep up holds the benchmark's writes back.
import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { createInterface } from 'node:readline';

// BullMQ 6 takes a client it does not load itself; the worker's needs to block (no retry limit)
const redis = () => new Redis({ host: '127.0.0.1', port: Number(process.argv[2]), maxRetriesPerRequest: null });
const name = 'heartbeats';
const queue = new Queue(name, { connection: redis() });
const worker = new Worker(name, async (job) => { process.stdout.write(job.id + '\n'); }, {
  connection: redis(),
  concurrency: 100,
  removeOnComplete: { count: 0 },
});
await queue.waitUntilReady();
await worker.waitUntilReady();
process.stdout.write('ready\n');

for await (const line of createInterface({ input: process.stdin })) {
  const [deadline, ...ids] = line.split(' ');
  const delay = Math.max(0, Number(deadline) - Date.now());
  await Promise.all(ids.map(async (id) => {
    await queue.remove(id);
    await queue.add('heartbeat', {}, { jobId: id, delay, removeOnComplete: true });
  }));
}
await worker.close();
await queue.close();
