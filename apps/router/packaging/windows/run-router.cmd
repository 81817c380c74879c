@echo off
rem What the start-up task (or NSSM) runs: the launcher, which starts the version named in
rem "current" and rolls an update back if it does not start. Settings: router.env.cmd beside it.
cd /d "%~dp0"
set ROUTER_DATA_DIR=%~dp0data
if exist "%~dp0router.env.cmd" call "%~dp0router.env.cmd"
:loop
node "%~dp0launcher.mjs" >> "%~dp0data\router.log" 2>&1
rem Like systemd's Restart=always: the launcher only stops when it has nothing to start.
timeout /t 5 /nobreak >nul
goto loop
