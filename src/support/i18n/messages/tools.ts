import { defineMessages } from '../define.js';

export const tools = defineMessages(
  {
    'tools.approve.title': 'zhi wants to run {name}:',
    'tools.approve.question': 'Allow? [y/N]',
    'tools.approve.questionWith': 'Allow? [y/N] ({extra})',
    'tools.approve.sep': ', ',
  },
  {
    'tools.approve.title': 'zhi 想要运行 {name}：',
    'tools.approve.question': '允许吗？[y/N]',
    'tools.approve.questionWith': '允许吗？[y/N]（{extra}）',
    'tools.approve.sep': '，',
  },
);
