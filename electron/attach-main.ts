/**
 * The Electron main process of `schedlab attach` (electron/attach-entry.mjs): no engine of its
 * own, one window on the service's console (attach-window.ts). Quits when the window closes.
 */
import { app } from 'electron';
import { ATTACH_ENV, attachUrlOf, createAttachWindow } from './attach-window.ts';

const url = attachUrlOf(process.env);
delete process.env[ATTACH_ENV]; // the token: not handed on to the app's child processes
// A profile apart from the app's (main.ts): a console's cookies are not the app's.
app.setName('SchedLab attach');
app.enableSandbox();
if (url === null) {
  console.error(`schedlab attach: ${ATTACH_ENV}=http://127.0.0.1:PORT/?token=… is required`);
  app.exit(2);
} else {
  void app.whenReady().then(() => {
    createAttachWindow(url);
    app.on('window-all-closed', () => app.quit());
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => app.quit());
}
