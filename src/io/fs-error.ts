/** A failure of the file system (it carries an errno code), as opposed to an exception of our own code. */
export function isFsError(error: unknown): boolean {
  return typeof (error as NodeJS.ErrnoException | undefined)?.code === 'string';
}
