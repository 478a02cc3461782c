import { defineMessages } from '../define.js';

// How zhi was installed (`zhi --version`) and the Node it runs on (`zhi doctor`).
export const install = defineMessages(
  {
    'install.version': '{version} ({how}, Node {node})',
    'install.kind.npm': 'npm package',
    'install.kind.exe': 'standalone executable',
    'install.kind.source': 'from source',
    'doctor.node.ok': 'Node {node} ({how}), supported until {date}.',
    'doctor.node.exe': 'Node {node}, inside the executable (supported until {date}).',
    'doctor.node.eol':
      'Node {node} ({how}) reached its end of life on {date}: it no longer gets security fixes.',
    'doctor.node.eolTry':
      'Install a current Node (22 or 24 LTS, from nodejs.org) and reinstall zhi with it, or use zhi’s standalone executable, which carries its own Node.',
    'doctor.node.exeEol':
      'The Node inside this executable ({node}) reached its end of life on {date}: it no longer gets security fixes.',
    'doctor.node.exeEolTry': 'Download the latest zhi executable.',
    'install.assetMissing':
      'A file zhi needs ({name}) is missing or unreadable: this installation of zhi is incomplete. Reinstall zhi (npm install -g zhi, or download the executable again).',
  },
  {
    'install.version': '{version}（{how}，Node {node}）',
    'install.kind.npm': 'npm 安装包',
    'install.kind.exe': '独立可执行文件',
    'install.kind.source': '源码运行',
    'doctor.node.ok': 'Node {node}（{how}），支持期至 {date}。',
    'doctor.node.exe': 'Node {node}，内置于可执行文件中（支持期至 {date}）。',
    'doctor.node.eol': 'Node {node}（{how}）已于 {date} 停止维护：不再有安全更新。',
    'doctor.node.eolTry':
      '请安装当前版本的 Node（22 或 24 LTS，见 nodejs.org）后用它重新安装 zhi，或改用自带 Node 的 zhi 独立可执行文件。',
    'doctor.node.exeEol': '此可执行文件内置的 Node（{node}）已于 {date} 停止维护：不再有安全更新。',
    'doctor.node.exeEolTry': '请下载最新的 zhi 可执行文件。',
    'install.assetMissing':
      'zhi 需要的文件（{name}）缺失或无法读取：此 zhi 安装不完整。请重新安装 zhi（npm install -g zhi，或重新下载可执行文件）。',
  },
);
