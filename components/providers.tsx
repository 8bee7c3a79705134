"use client";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { useState } from "react";
import { z } from "zod";

// Zod probes `new Function("")` to decide whether to compile parsers; under the page's
// Content-Security-Policy (no 'unsafe-eval') that probe is a reported violation. The browser
// parses small forms only, so the interpreted parsers cost nothing noticeable.
if (typeof window !== "undefined") z.config({ jitless: true });

export function Providers({ children }: { children: React.ReactNode }) {
  const [client] = useState(() => new QueryClient({ defaultOptions: { queries: { staleTime: 5_000, retry: 1 } } }));
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}
