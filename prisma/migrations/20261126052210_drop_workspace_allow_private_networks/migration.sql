-- Outbound network access is an instance setting (ASSAY_ALLOW_PRIVATE_NETWORKS, ASSAY_ALLOW_LOOPBACK):
-- a workspace admin must not be able to open private or metadata addresses to its members.
-- AlterTable
ALTER TABLE "Workspace" DROP COLUMN "allowPrivateNetworks";
