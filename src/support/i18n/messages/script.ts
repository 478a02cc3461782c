import { defineMessages } from '../define.js';

// Strings of run_script (tools/script/): its approval, refusals and what is missing.
export const script = defineMessages(
  {
    'script.preview.header': '{language} script, {lines} lines:',
    'doctor.scripts.found': 'Scripts the model writes (run_script): {language} at {path}.',
    'doctor.scripts.missing':
      'Scripts the model writes (run_script): {language} is not installed (or not on PATH); install it, or set {env} to its path.',
    'script.preview.more': '  … {count} more lines (type v to see them all)',
    'script.refuse.control':
      'the script holds control characters ({shown}) that could make it look different on the screen from what runs',
    'script.refuse.noInterpreter':
      '{language} is not installed here (or not on PATH), so the script cannot run. Install it, or set {env} to its path; or ask for the work in the other language',
    'script.sandbox.none':
      'not sandboxed here: the script runs with your rights, can change any of your files and use the network. It is asked every time, also with --auto',
    'script.sandbox.noneOff':
      'not sandboxed (shell_sandbox is off): the script can change any of your files. It is asked every time, also with --auto',
    'script.unreachable':
      '{language} at {path} could not be started (it may lie in a folder the sandbox does not show). Set {env} to an interpreter in a system folder, such as /usr/bin/python3',
    'script.missing':
      'The script needs the {language} package {module}, which is not installed here. To install it: {install}',
  },
  {
    'script.preview.header': '{language} 脚本，共 {lines} 行：',
    'doctor.scripts.found': '模型编写的脚本（run_script）：{language} 位于 {path}。',
    'doctor.scripts.missing':
      '模型编写的脚本（run_script）：没有安装 {language}（或不在 PATH 中）；请安装它，或将 {env} 设为它的路径。',
    'script.preview.more': '  ……还有 {count} 行（输入 v 查看全部）',
    'script.refuse.control': '脚本含有控制字符（{shown}），可能使屏幕上显示的内容与实际运行的不同',
    'script.refuse.noInterpreter':
      '这台电脑没有安装 {language}（或不在 PATH 中），脚本无法运行。请安装它，或将 {env} 设为它的路径；也可以改用另一种语言完成这项工作',
    'script.sandbox.none':
      '此处没有沙盒：脚本以你的权限运行，可以修改你的任何文件，也可以联网。每次都会询问，使用 --auto 时也一样',
    'script.sandbox.noneOff':
      '未放入沙盒（shell_sandbox 已关闭）：脚本可以修改你的任何文件。每次都会询问，使用 --auto 时也一样',
    'script.unreachable':
      '无法启动 {path} 处的 {language}（它可能位于沙盒不显示的文件夹中）。请将 {env} 设为系统文件夹中的解释器，例如 /usr/bin/python3',
    'script.missing': '脚本需要 {language} 包 {module}，但这里没有安装。安装方法：{install}',
  },
);
