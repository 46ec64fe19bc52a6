import { serveHost } from 'dsh-host';
import { CliError } from '../cli-error.js';
import type { CliContext } from '../cli-context.js';
import type { OptionValues } from '../parse-command-line.js';
import { withHost } from '../with-host.js';

const DEFAULT_PORT = 4317;

/** `dsh serve`: serves the HTTP API until SIGINT/SIGTERM, then releases every session. */
export async function serveCommand(context: CliContext, values: OptionValues): Promise<number> {
  const portText = typeof values.port === 'string' ? values.port : String(DEFAULT_PORT);
  if (!/^\d{1,5}$/.test(portText) || Number(portText) > 65_535) throw new CliError('USAGE', `--port expects 0..65535, received '${portText}'.`);
  const token = typeof values.token === 'string' ? values.token : context.env.DSH_TOKEN;
  const hostname = typeof values.host === 'string' ? values.host : '127.0.0.1';
  return withHost(context, values, async (host, dataDir) => {
    const server = await serveHost(host, { hostname, port: Number(portText), ...(token === undefined || token === '' ? {} : { token }) });
    context.stdout.write(`dsh: serving ${server.url} (data ${dataDir}${token === undefined || token === '' ? '' : ', bearer token required'}); Ctrl-C stops\n`);
    // `on`, not `once`: Ctrl-C reaches both the launcher and this process, and the launcher forwards
    // it again — a second SIGINT during shutdown must not kill us with the default handler.
    await new Promise<void>((resolve) => {
      process.on('SIGINT', () => {
        resolve();
      });
      process.on('SIGTERM', () => {
        resolve();
      });
    });
    await server.close();
    context.stderr.write('dsh: stopped\n');
    return 0;
  });
}
