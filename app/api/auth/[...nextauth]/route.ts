export { GET, POST } from "@/lib/auth/route-handlers";
