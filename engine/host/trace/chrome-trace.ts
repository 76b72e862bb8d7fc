/**
 * The CLI's Chrome traces (`schedlab run --trace`): the shared builder (shared/lib/chrome-trace.ts,
 * which the app's export uses too) over a trace window's spans and counter samples.
 */
export {
  buildChromeTrace as toChromeTrace,
  type ChromeTrace,
  type TraceEvent,
  type TraceInput,
} from '../../../shared/lib/chrome-trace.ts';
