import { orNotFound, pageContext } from "@/lib/auth/context";
import { loadConversationPage } from "@/lib/traffic/loaders";
import { Breadcrumbs } from "@/components/ui/breadcrumbs";
import { PageHeader } from "@/components/ui/page-header";
import { ConversationView } from "@/components/traffic/conversation-view";
import { MakeCaseButton } from "@/components/traffic/make-case-button";
import type { WorkspaceParams } from "@/lib/pages/props";

export const metadata = { title: "Conversation" };

export default async function ConversationPage({ params }: WorkspaceParams<{ conversationId: string }>) {
  const { workspaceId, conversationId } = await params;
  const ctx = await pageContext(workspaceId);
  const { conversation, canEdit } = await orNotFound(loadConversationPage(ctx, conversationId));
  const title = conversation.first_user_message ?? "Conversation";
  return (
    <div className="space-y-4">
      <Breadcrumbs items={[{ label: "Traffic", href: `/w/${workspaceId}/traffic` }, { label: "Conversation" }]} />
      <PageHeader
        title={title.length > 90 ? `${title.slice(0, 89)}…` : title}
        description={`${conversation.service_name ?? "Unknown service"} · ${conversation.user_turns} user ${conversation.user_turns === 1 ? "turn" : "turns"}`}
        actions={
          canEdit ? (
            <MakeCaseButton
              workspaceId={workspaceId}
              from={{ type: "conversation", id: conversation.id }}
              userTurns={conversation.user_turns}
            />
          ) : undefined
        }
      />
      <ConversationView workspaceId={workspaceId} conversation={conversation} />
    </div>
  );
}
