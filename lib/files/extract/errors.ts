/** A file that cannot be read as its type (corrupt, encrypted, a page or sheet that does not exist). */
export class FileProcessingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "FileProcessingError";
  }
}
