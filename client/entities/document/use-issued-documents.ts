import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { NotificationSocketContext } from '#client/api/notification-socket-context.ts';
import { isDocumentIssued } from '#client/api/notification-socket.ts';
import { documentQueries } from '#client/api/documents-queries.ts';

/**
 * Reads the account's document lists again when the document service says it issued one: a
 * schedule comes just after its policy was saved, an acknowledgement after its claim, on the
 * insurance or claim service's event, so a list read with the save's answer does not have it
 * yet. Every list (not only the record's) because a policy's list shows its claims' documents.
 */
export function useIssuedDocuments(accountIndex: number): void {
  const queryClient = useQueryClient();
  const lastMessage = NotificationSocketContext.useSelector((s) => s.context.lastMessage);
  useEffect(() => {
    if (isDocumentIssued(lastMessage))
      void queryClient.invalidateQueries({ queryKey: documentQueries.all(accountIndex) });
  }, [lastMessage, queryClient, accountIndex]);
}
