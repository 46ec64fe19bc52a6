import { generateConversation } from './src/generate/generate-conversation.js';
import { v4EventsOf, v4Jsonl } from './src/generate/generate-v4-log.js';
let t = performance.now();
const lap = (m: string) => { const n = performance.now(); console.log(m, (n - t).toFixed(0)); t = n; };
const c = generateConversation({ seed: 1, budget: 99998, turnOverhead: 4 }); lap('conv');
const ev = v4EventsOf(c); lap('events');
const text = v4Jsonl({ header: { format: 'dsh-session', version: 4, id: 'x', createdAt: 1, cwd: '/', inheritedEventCount: 0 }, events: ev }); lap('jsonl ' + text.length);
