/** The hook entry (plugin/dist/hook.cjs): `node hook.cjs <event>` loads that event's bundle only. Kept tiny for start-up time. */
import { launchHook } from './hooks/launch.js';

launchHook(process.argv[2], __dirname);
