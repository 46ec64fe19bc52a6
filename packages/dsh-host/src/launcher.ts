/**
 * @module dsh-host/launcher
 * What a server process started from a command line needs around `serveHost`: binding and closing a
 * Node server (`close()` ends open SSE streams), a Node server no number of local clients can
 * exhaust (`createBoundedHttpServer`), and stopping when the `npm run` launcher that started it dies
 * without passing a signal on. dsh's CLI (`dsh serve`) and demo server use it.
 */
export { answerAndClose, createBoundedHttpServer, type BoundedServerOptions } from './http/bounded-http-server.js';
export { listenHttpServer } from './http/listen-http-server.js';
export { whenLauncherExits } from './http/when-launcher-exits.js';
