/** The status line entry (plugin/dist/statusline.cjs): `node statusline.cjs [--wrap "<command>"] [--no-color]`. */
import { statusLineMain } from './hooks/statusline.js';

statusLineMain(process.argv.slice(2), __dirname);
