export { findElectronBinary } from '../engine/host/electron-binary.mjs';
