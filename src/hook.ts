/** The hook entry (plugin/dist/hook.cjs): `node hook.cjs <event>`. Kept free of CLI code for start-up time. */
import { hookMain } from './hooks/main.js';

hookMain(process.argv[2], __dirname);
