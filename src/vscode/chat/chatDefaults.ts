/** Where the model new chats start with is kept (globalState): the last one used, or one promoted from an evaluation. */
export const chatDefaultModelKey = 'rlStudio.chat.lastModel';
