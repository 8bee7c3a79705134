import { describe, expect, it } from "vitest";
import { reportFilename } from "@/lib/runs/report-formats";

describe("run report file names", () => {
  it("name the suite and the run's number, with the format's extension", () => {
    expect(reportFilename("Checkout bot", 42, "json")).toBe("assay-checkout-bot-run-42.json");
    expect(reportFilename("Checkout bot", 42, "markdown")).toBe("assay-checkout-bot-run-42.md");
    expect(reportFilename("Checkout bot", 42, "csv")).toBe("assay-checkout-bot-run-42.csv");
    expect(reportFilename("Checkout bot", 3, "junit")).toBe("assay-checkout-bot-run-3.xml");
  });

  it("keep only lowercase ASCII letters, digits and single dashes of the suite name", () => {
    expect(reportFilename("Réservations — EU (v2)", 7, "json")).toBe("assay-reservations-eu-v2-run-7.json");
    // Nothing that could end the Content-Disposition quotes, add a header or name a directory.
    const hostile = reportFilename('a"b\\c\r\nSet-Cookie: x=1;/../../etc/passwd', 1, "csv");
    expect(hostile).toBe("assay-a-b-c-set-cookie-x-1-etc-passwd-run-1.csv");
    expect(hostile).toMatch(/^[a-z0-9.-]+$/);
  });

  it("fall back to 'suite' for a name with nothing usable and cut long names", () => {
    expect(reportFilename("日本語のスイート", 1, "json")).toBe("assay-suite-run-1.json");
    expect(reportFilename("---", 2, "json")).toBe("assay-suite-run-2.json");
    const long = reportFilename(`${"a".repeat(59)} bcd`, 9, "json");
    expect(long).toBe(`assay-${"a".repeat(59)}-run-9.json`);
  });
});
