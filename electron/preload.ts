/**
 * The only bridge between the sandboxed page and the main process (docs/design.md §7). The page gets
 * a narrow typed object — `window.schedlab.command(cmd)` over one IPC channel — never
 * `ipcRenderer` itself. Frames and snapshots arrive on a MessagePort that main hands over after
 * each load; this forwards it to the page, which listens for `PORT_MESSAGE` on `window` — to our
 * own origin only, so a page that is not SchedLab's never receives the engine's port.
 *
 * Runs in Electron's sandbox, where only a few modules can be required: main bundles this file
 * (with the constants it imports) into one CommonJS script at launch (`preload-bundle.ts`).
 */
import { contextBridge, ipcRenderer } from 'electron';
import type { Command, CommandResult } from '../shared/protocol.ts';
import { COMMAND_CHANNEL, PORT_MESSAGE, type SchedlabBridge } from '../shared/transport.ts';
import { APP_ORIGIN } from './app-origin.ts';

const bridge: SchedlabBridge<Command, CommandResult> = {
  host: 'electron',
  command: (command) => ipcRenderer.invoke(COMMAND_CHANNEL, command) as Promise<CommandResult>,
};
contextBridge.exposeInMainWorld('schedlab', bridge);

ipcRenderer.on(PORT_MESSAGE, (event) => {
  const [port] = event.ports;
  if (port !== undefined) window.postMessage(PORT_MESSAGE, APP_ORIGIN, [port]);
});
