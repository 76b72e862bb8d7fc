export { SimBackend, type SimOptions } from './sim-backend.ts';
export { mulberry32 } from '../../../shared/lib/rng.ts';
