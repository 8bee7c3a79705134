// Starts the project's fake OpenAI-compatible server for the browser tests (model
// configurations point at it) and leaves it running for the whole Playwright run.
import { FAKE_OPENAI_PORT } from "../playwright.config";

export default async function globalSetup() {
  const { startFakeOpenAI } = await import("../tests/fake-openai/server");
  const server = await startFakeOpenAI({ port: FAKE_OPENAI_PORT });
  return async () => {
    await server.close();
  };
}
