/** A file that cannot be read as its type (corrupt, encrypted, a page or sheet that does not exist). */
export class FileProcessingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "FileProcessingError";
  }
}

/** Shown instead of an empty string, so "the document is empty" is visible to the agent and in previews. */
export const NO_TEXT = "_(no text content)_";
