/**
 * The status line entry (plugin/dist/statusline.cjs): `node statusline.cjs [--wrap "<command>"] [--no-color]`. A
 * launcher of a few KB, as hook.cjs is: the status line itself (statusline-main.cjs) is compiled from the code
 * cache in the private state directory when there is one, since Claude Code starts a status line process after
 * every turn.
 */
import { launchStatusLine } from './hooks/statusline-launch.js';

launchStatusLine(process.argv.slice(2), __dirname);
