#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>
#include <dirent.h>
#include <pthread.h>
#include <time.h>
// usage: oa MODE THREADS ROOT  (MODE 0 full path, 1 dirfd-relative); lists a 2-level tree first
typedef struct { int dfd; char *dir; char *name; } ent;
ent *ents; int n, cap; int mode; int nthreads; volatile int next;
char root[4096];
static void add(int dfd, char *dir, char *name){ if(n==cap){cap=cap?cap*2:1024; ents=realloc(ents,cap*sizeof(ent));} ents[n].dfd=dfd; ents[n].dir=dir; ents[n].name=strdup(name); n++; }
static void list(char *dir){ DIR *d=opendir(dir); struct dirent *e; int dfd=open(dir,O_RDONLY|O_DIRECTORY);
  while((e=readdir(d))){ if(e->d_name[0]=='.') continue; char p[4096]; snprintf(p,sizeof p,"%s/%s",dir,e->d_name);
    if(e->d_type==DT_DIR) list(strdup(p)); else add(dfd,dir,e->d_name);} closedir(d);}
static void *work(void *a){ char buf[65536]; char p[4096]; long s=0; for(;;){ int i=__sync_fetch_and_add(&next,1); if(i>=n) break;
  int fd; if(mode==0){ snprintf(p,sizeof p,"%s/%s",ents[i].dir,ents[i].name); fd=open(p,O_RDONLY|O_CLOEXEC);} else fd=openat(ents[i].dfd,ents[i].name,O_RDONLY|O_CLOEXEC);
  ssize_t r; while((r=read(fd,buf,sizeof buf))>0) s+=r; close(fd);} return (void*)s; }
int main(int c, char**v){ mode=atoi(v[1]); nthreads=atoi(v[2]); list(v[3]);
  struct timespec t0,t1; clock_gettime(CLOCK_MONOTONIC,&t0); pthread_t th[64]; for(int i=0;i<nthreads;i++) pthread_create(&th[i],0,work,0); long tot=0; for(int i=0;i<nthreads;i++){void*r; pthread_join(th[i],&r); tot+=(long)r;}
  clock_gettime(CLOCK_MONOTONIC,&t1); printf("mode %d threads %d files %d bytes %ld: %.1f ms\n",mode,nthreads,n,tot,(t1.tv_sec-t0.tv_sec)*1e3+(t1.tv_nsec-t0.tv_nsec)/1e6); }
