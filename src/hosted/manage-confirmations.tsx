import { Hono } from 'hono';
import { shownTitle } from '../../pages/manage-pages.tsx';
import { memoryTitle, projectName } from '../../pages/memory-project-pages.tsx';
import { providerName } from '../../pages/providers.ts';
import type { AppEnv } from '../app-env.ts';
import { neutraliseBidi } from '../bidi-controls.ts';
import { attachmentOf, deleteAttachment } from '../conversations/attachments.ts';
import { conversationOf, deleteConversation, disconnect } from '../conversations/manage.ts';
import { deleteMemory, deleteProject, memoryOf, projectOf } from '../conversations/memories-and-projects.ts';
import { connectionOf } from '../conversations/ownership.ts';
import { purgeUser } from '../conversations/purge.ts';
import type { Deps } from '../deps.ts';
import { ParleyError } from '../errors.ts';
import { rememberResult } from '../links/page-sessions.ts';
import { confirmationRoutes } from './confirmation.tsx';

/** Deleting a file of a message; back to its conversation. */
const deleteAttachmentConfirmation = (deps: Deps) =>
  confirmationRoutes(deps, {
    path: '/manage/attachments/:id/delete',
    page: async (c, t) => {
      const attachment = await attachmentOf(deps, c.var.session, c.req.param('id'));
      return {
        title: t.confirmDeleteAttachment,
        explanation: t.confirmDeleteAttachmentText({
          name: neutraliseBidi(attachment.name),
          app: c.var.session.appName,
        }),
        confirmLabel: t.deleteAttachmentButton,
        cancelHref: `/manage/conversations/${attachment.conversation_id}`,
        staysDeleted: true,
      };
    },
    act: async (c) => {
      const deleted = await deleteAttachment(deps, c.var.session, c.req.param('id'));
      return `/manage/conversations/${deleted.conversation_id}?notice=attachment-deleted`;
    },
  });

/** Deleting a conversation; back to its connection. */
const deleteConversationConfirmation = (deps: Deps) =>
  confirmationRoutes(deps, {
    path: '/manage/conversations/:id/delete',
    page: async (c, t) => {
      const conversation = await conversationOf(deps, c.var.session, c.req.param('id'));
      return {
        title: t.confirmDeleteConversation,
        explanation: t.confirmDeleteConversationText({
          title: shownTitle(conversation.title, t),
          app: c.var.session.appName,
        }),
        confirmLabel: t.deleteConversationButton,
        cancelHref: `/manage/conversations/${conversation.id}`,
        staysDeleted: true,
      };
    },
    act: async (c) => {
      const deleted = await deleteConversation(deps, c.var.session, c.req.param('id'));
      return `/manage/connections/${deleted.connection_id}?notice=conversation-deleted`;
    },
  });

/** Deleting a memory; back to its connection's memories. */
const deleteMemoryConfirmation = (deps: Deps) =>
  confirmationRoutes(deps, {
    path: '/manage/memories/:id/delete',
    page: async (c, t) => {
      const memory = await memoryOf(deps, c.var.session, c.req.param('id'));
      return {
        title: t.confirmDeleteMemory,
        explanation: t.confirmDeleteMemoryText({
          title: memoryTitle(memory, t),
          size: t.bytes(memory.bytes),
          app: c.var.session.appName,
        }),
        confirmLabel: t.deleteMemoryButton,
        cancelHref: `/manage/connections/${memory.connection_id}/memories`,
        staysDeleted: true,
      };
    },
    act: async (c) => {
      const deleted = await deleteMemory(deps, c.var.session, c.req.param('id'));
      return `/manage/connections/${deleted.connection_id}/memories?notice=memory-deleted`;
    },
  });

/** Deleting a project with its knowledge files; back to its connection's projects. */
const deleteProjectConfirmation = (deps: Deps) =>
  confirmationRoutes(deps, {
    path: '/manage/projects/:id/delete',
    page: async (c, t) => {
      const project = await projectOf(deps, c.var.session, c.req.param('id'));
      return {
        title: t.confirmDeleteProject,
        explanation: t.confirmDeleteProjectText({
          name: projectName(project.name, t),
          files: project.files.length,
          size: t.bytes(project.bytes),
          app: c.var.session.appName,
        }),
        confirmLabel: t.deleteProjectButton,
        cancelHref: `/manage/projects/${project.id}`,
        staysDeleted: true,
      };
    },
    act: async (c) => {
      const deleted = await deleteProject(deps, c.var.session, c.req.param('id'));
      return `/manage/connections/${deleted.connection_id}/projects?notice=project-deleted`;
    },
  });

/** Disconnecting a connection (its conversations are deleted); refused once it is. */
const disconnectConfirmation = (deps: Deps) =>
  confirmationRoutes(deps, {
    path: '/manage/connections/:id/disconnect',
    page: async (c, t) => {
      const connection = await connectionOf(deps, c.var.session, c.req.param('id'));
      if (connection.status === 'revoked') throw new ParleyError('connectionRevoked');
      const provider = providerName(connection.provider);
      const count = connection.conversation_count;
      return {
        title: t.confirmDisconnect({ provider }),
        explanation: t.confirmDisconnectText({ count, provider, app: c.var.session.appName }),
        confirmLabel: t.disconnectHeading({ provider }),
        cancelHref: `/manage/connections/${connection.id}`,
      };
    },
    act: async (c) => {
      await disconnect(deps, c.var.session, c.req.param('id'));
      return '/manage?notice=disconnected';
    },
  });

/** Deleting everything of the person's; what went is kept in the session for the page after. */
const deleteAllConfirmation = (deps: Deps) =>
  confirmationRoutes(deps, {
    path: '/manage/delete-all',
    page: async (c, t) => ({
      title: t.confirmDeleteAll,
      explanation: t.confirmDeleteAllText({ app: c.var.session.appName }),
      confirmLabel: t.deleteAllButton,
      cancelHref: '/manage',
    }),
    act: async (c) => {
      const owner = c.var.session;
      let deleted = { connections: 0, conversations: 0 };
      try {
        const { connections, conversations } = await purgeUser(deps, owner.appId, owner.userRef, owner.tokenHash);
        deleted = { connections, conversations };
      } catch (error) {
        // Nothing imported, or already deleted: the outcome the person asked for.
        if (!(error instanceof ParleyError && error.code === 'userNotFound')) throw error;
      }
      await rememberResult(deps, owner, { deleted });
      return '/manage?notice=all-deleted';
    },
  });

/** The manage pages' destructive actions, each behind its confirmation page. */
export const manageConfirmations = (deps: Deps) =>
  new Hono<AppEnv>()
    .route('/', deleteAttachmentConfirmation(deps))
    .route('/', deleteConversationConfirmation(deps))
    .route('/', deleteMemoryConfirmation(deps))
    .route('/', deleteProjectConfirmation(deps))
    .route('/', disconnectConfirmation(deps))
    .route('/', deleteAllConfirmation(deps));
