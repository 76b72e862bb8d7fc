// Where the Electron binary is: engine/host/electron-binary.mjs (there so `schedlab attach`, in
// engine/cli, can ask too); re-exported here for `npm start`, the e2e runner and Playwright.
export { findElectronBinary } from '../engine/host/electron-binary.mjs';
